import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import git from 'isomorphic-git';
import { FORMATION_FILE, readFormation } from '../workspace';
import { TESTS_FOLDER } from '../regression';
import { gitFs, readAt, repoPath, type WorkspaceRepo } from './repo';

// A version of a workspace is the files the Studio keeps: formation.yaml, the manifest of every
// capsule it lists, the saved tests and the published-version record. Anything else in the folder
// (notes, scripts, a user's own files) is the user's to commit; a Studio step never sweeps it in.

export const PUBLISHED_FILE = 'published.yaml';

export interface VersionCapsule {
  id: string;
  /** The manifest's path relative to the workspace, as formation.yaml names it. */
  path: string;
  /** The manifest's text ('' when formation.yaml names a file the version lacks). */
  source: string;
}

export interface VersionFiles {
  formation: string;
  capsules: VersionCapsule[];
}

/** Manifest paths formation.yaml lists, normalized, those leaving the workspace left out. */
function manifestPaths(formation: string): { id: string; path: string }[] {
  return readFormation(formation)
    .capsules.map((c) => ({ id: c.id, path: posix.normalize(c.manifest.replace(/\\/g, '/')) }))
    .filter((c) => !c.path.startsWith('../') && !posix.isAbsolute(c.path) && c.path !== '..');
}

/** The formation and manifests of a commit; undefined when the commit has no formation.yaml there. */
export async function readVersion(repo: WorkspaceRepo, oid: string, cache: object): Promise<VersionFiles | undefined> {
  const formation = await readAt(repo, oid, FORMATION_FILE, cache);
  if (formation === undefined) return undefined;
  const capsules = await Promise.all(
    manifestPaths(formation).map(async (c) => ({ ...c, source: (await readAt(repo, oid, c.path, cache)) ?? '' })),
  );
  return { formation, capsules };
}

/**
 * The formation and manifests on disk now, read off the main thread (a manifest is the user's file,
 * of any size, and the commands that read them run in the Studio).
 */
export async function readWorkingVersion(dir: string): Promise<VersionFiles> {
  const read = (rel: string) => readFile(join(dir, rel), 'utf8').catch(() => '');
  const formation = await read(FORMATION_FILE);
  const capsules = await Promise.all(manifestPaths(formation).map(async (c) => ({ ...c, source: await read(c.path) })));
  return { formation, capsules };
}

async function testsAt(repo: WorkspaceRepo, oid: string, cache: object): Promise<string[]> {
  try {
    const { tree } = await git.readTree({
      fs: gitFs,
      dir: repo.root,
      oid,
      filepath: repoPath(repo, TESTS_FOLDER),
      cache,
    });
    return tree.filter((e) => e.type === 'blob' && /\.ya?ml$/.test(e.path)).map((e) => `${TESTS_FOLDER}/${e.path}`);
  } catch {
    return [];
  }
}

/** The saved tests on disk now ([] without a tests folder). */
async function testsNow(dir: string): Promise<string[]> {
  try {
    return (await readdir(join(dir, TESTS_FOLDER)))
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => `${TESTS_FOLDER}/${f}`);
  } catch {
    return [];
  }
}

/** Every file a Studio step keeps, as it is on disk now or was at `head` (so deletions are seen). */
export async function keptPaths(
  dir: string,
  repo: WorkspaceRepo,
  head: string | undefined,
  cache: object,
): Promise<string[]> {
  const now = await readWorkingVersion(dir);
  const paths = new Set([FORMATION_FILE, PUBLISHED_FILE, ...now.capsules.map((c) => c.path), ...(await testsNow(dir))]);
  if (head) {
    const before = await readVersion(repo, head, cache);
    for (const c of before?.capsules ?? []) paths.add(c.path);
    for (const t of await testsAt(repo, head, cache)) paths.add(t);
  }
  return [...paths].sort();
}
