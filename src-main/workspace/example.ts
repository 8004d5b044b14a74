import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { existsSync } from './files';
import { EMPTY_FORMATION, FORMATION_FILE } from './formation-file';
import { writeFileAtomic } from './files';
import type { RecentList } from './recent';

// The example formation ships read-only in resources/; the user gets their own copy in the user
// data folder on first start (never edited in place), and later starts reuse that copy.

export const EXAMPLE_FOLDER = 'example-workspace';

/** Copies the example into the user data folder unless a copy is there; returns the copy's folder. */
export function ensureExampleWorkspace(resourcesDir: string, userDataDir: string): string {
  const target = join(userDataDir, EXAMPLE_FOLDER);
  if (existsSync(join(target, FORMATION_FILE))) return target;
  copyExample(resourcesDir, target);
  return target;
}

export function copyExample(resourcesDir: string, target: string): void {
  const source = join(resourcesDir, EXAMPLE_FOLDER);
  if (!existsSync(join(source, FORMATION_FILE)))
    throw new Error(`The example workspace is missing from ${resourcesDir}`);
  mkdirSync(target, { recursive: true });
  cpSync(source, target, { recursive: true, force: false, errorOnExist: false });
}

/** Writes an empty formation.yaml into a new or empty folder. */
export function writeEmptyFormation(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(join(dir, FORMATION_FILE), EMPTY_FORMATION);
}

/**
 * The workspace a start opens: the one asked for, else the last one opened (the user's own work,
 * when it still holds a formation), else the user's copy of the example.
 */
export function startWorkspace(
  config: { workspace?: string; resourcesDir: string; userDataDir: string },
  recent: RecentList,
): string {
  if (config.workspace) return config.workspace;
  const last = recent.list()[0];
  if (last?.exists) return last.dir;
  return ensureExampleWorkspace(config.resourcesDir, config.userDataDir);
}
