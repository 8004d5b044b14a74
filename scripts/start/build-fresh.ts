import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// npm start builds only when out/ is older than what it is built from: a second start skips the
// build (a few seconds on a small machine) when nothing changed since the last one.

/** What the three bundles are built from: the sources and the build's own configuration. */
export const BUILD_INPUTS = [
  'src-main',
  'src-renderer',
  'src-shared',
  'electron.vite.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
];
/** One file per bundle; a missing one means the build has to run. */
export const BUILD_OUTPUTS = ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html'];

/** Why the build must run, or undefined when out/ is newer than every input. */
export function buildNeeded(root: string): string | undefined {
  let oldestOutput = Infinity;
  for (const rel of BUILD_OUTPUTS) {
    const m = mtime(join(root, rel));
    if (m === undefined) return `${rel} is missing`;
    oldestOutput = Math.min(oldestOutput, m);
  }
  for (const rel of BUILD_INPUTS) {
    const newer = newerFile(join(root, rel), oldestOutput);
    if (newer) return `${newer.slice(root.length + 1)} changed since the last build`;
  }
  return undefined;
}

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The first file under `path` modified after `than` (tests beside the code do not count). */
function newerFile(path: string, than: number): string | undefined {
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    const m = mtime(path); // a file, or nothing there
    return m !== undefined && m > than ? path : undefined;
  }
  for (const e of entries) {
    const child = join(path, e.name);
    if (e.isDirectory()) {
      const found = newerFile(child, than);
      if (found) return found;
    } else if (!/\.test\.tsx?$/.test(e.name) && (mtime(child) ?? 0) > than) return child;
  }
  // A folder changes when a file in it is added, removed or renamed.
  return (mtime(path) ?? 0) > than ? path : undefined;
}
