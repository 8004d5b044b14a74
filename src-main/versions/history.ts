import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { CoreError, type StepView } from '../../src-shared/contract';
import { authorOf, findRepo, gitFs, headCommit, initRepo, readAt, repoPath, type WorkspaceRepo } from './repo';
import { keptPaths, readVersion } from './snapshot';
import { updateTree, type TreeChanges } from './tree';

// The workspace's history: every save in the Studio is a commit of the files it keeps (see
// snapshot.ts), in the workspace's own repository, or in one created in the workspace on the
// first save. A user's hand commits sit in the same history and are listed like any step.

/** A step as the contract carries it (a Studio save, a publish, a restore, or a hand commit). */
export type Step = StepView;

export interface SaveResult {
  /** The new step, or undefined when nothing the Studio keeps had changed. */
  step?: Step;
  /** True when this save created the workspace's repository. */
  created: boolean;
}

export const shortVersion = (oid: string): string => oid.slice(0, 7);

/** Runs git work on one workspace one piece at a time (a drag and a save may land together). */
const queues = new Map<string, Promise<unknown>>();
export function serialized<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const run = (queues.get(dir) ?? Promise.resolve()).then(work, work);
  const tail = run.catch(() => undefined);
  queues.set(dir, tail);
  void tail.then(() => {
    if (queues.get(dir) === tail) queues.delete(dir);
  });
  return run;
}

/** A kept file's bytes, read off the main thread; undefined when it is gone. */
const readBytes = (file: string): Promise<Buffer | undefined> => readFile(file).catch(() => undefined);

/** Commits what changed in the kept files since HEAD, with `message`. */
export function saveStep(dir: string, message: string, opts: { create?: boolean } = {}): Promise<SaveResult> {
  return serialized(dir, async () => {
    let repo = await findRepo(dir);
    let created = false;
    if (!repo) {
      if (opts.create === false) return { created };
      repo = await initRepo(dir);
      created = true;
    }
    const cache = {};
    const head = await headCommit(repo);
    const changes: TreeChanges = new Map();
    for (const rel of await keptPaths(dir, repo, head, cache)) {
      const bytes = await readBytes(join(dir, rel));
      const path = repoPath(repo, rel);
      const before = head ? await readAt(repo, head, rel, cache) : undefined;
      if (bytes === undefined) {
        if (before !== undefined) changes.set(path, null);
        continue;
      }
      if (before !== undefined && Buffer.from(before, 'utf8').equals(bytes)) continue;
      changes.set(path, await git.writeBlob({ fs: gitFs, dir: repo.root, blob: bytes }));
    }
    if (!changes.size) return { created };
    const baseTree = head
      ? (await git.readCommit({ fs: gitFs, dir: repo.root, oid: head, cache })).commit.tree
      : undefined;
    const tree =
      (await updateTree(repo, baseTree, changes, cache)) ??
      (await git.writeTree({ fs: gitFs, dir: repo.root, tree: [] }));
    const author = await authorOf(repo);
    const oid = await git.commit({
      fs: gitFs,
      dir: repo.root,
      message,
      author,
      tree,
      parent: head ? [head] : [],
      cache,
    });
    // The index follows for the files committed, so `git status` shows them clean.
    for (const [path, blob] of changes) {
      if (blob === null) await git.remove({ fs: gitFs, dir: repo.root, filepath: path, cache }).catch(() => undefined);
      else await git.add({ fs: gitFs, dir: repo.root, filepath: path, cache }).catch(() => undefined);
    }
    return { created, step: await stepOf(repo, oid, cache) };
  });
}

/** The capsules whose manifest differs between a commit and its first parent. */
async function changedCapsules(
  repo: WorkspaceRepo,
  oid: string,
  parent: string | undefined,
  cache: object,
): Promise<string[]> {
  const after = await readVersion(repo, oid, cache);
  const before = parent ? await readVersion(repo, parent, cache) : undefined;
  const was = new Map((before?.capsules ?? []).map((c) => [c.id, c.source]));
  const now = new Map((after?.capsules ?? []).map((c) => [c.id, c.source]));
  const ids = new Set([...was.keys(), ...now.keys()]);
  return [...ids].filter((id) => was.get(id) !== now.get(id)).sort();
}

async function stepOf(repo: WorkspaceRepo, oid: string, cache: object): Promise<Step> {
  const { commit } = await git.readCommit({ fs: gitFs, dir: repo.root, oid, cache });
  return {
    version: oid,
    short: shortVersion(oid),
    message: commit.message.trim(),
    author: commit.author.name,
    time: commit.author.timestamp,
    capsules: await changedCapsules(repo, oid, commit.parent[0], cache),
  };
}

/** The newest steps first (hand commits that touched the workspace included); [] without a repository. */
export async function listSteps(dir: string, limit = 50): Promise<Step[]> {
  const repo = await findRepo(dir);
  if (!repo || !(await headCommit(repo))) return [];
  const cache = {};
  const log = await git.log({ fs: gitFs, dir: repo.root, ref: 'HEAD', depth: limit, cache });
  return Promise.all(log.map((entry) => stepOf(repo, entry.oid, cache)));
}

/** A full commit id from what a user typed (a prefix of 4+ hex digits, or HEAD); a clear error otherwise. */
export async function resolveVersion(repo: WorkspaceRepo, version: string): Promise<string> {
  const v = version.trim();
  if (v === 'HEAD') {
    const head = await headCommit(repo);
    if (!head) throw new CoreError('not_found', 'The workspace has no saved version yet.');
    return head;
  }
  if (!/^[0-9a-f]{4,40}$/i.test(v))
    throw new CoreError(
      'invalid_input',
      `"${v.slice(0, 60)}" is not a version (a version is the hex id history lists, 4 or more digits).`,
    );
  try {
    const oid = await git.expandOid({ fs: gitFs, dir: repo.root, oid: v.toLowerCase() });
    await git.readCommit({ fs: gitFs, dir: repo.root, oid });
    return oid;
  } catch (err) {
    if ((err as { code?: string }).code === 'AmbiguousError')
      throw new CoreError('invalid_input', `Version ${v} is ambiguous; give more digits.`);
    throw new CoreError('not_found', `No version ${v} in the workspace's history.`);
  }
}

/** The repository of a workspace that has a history, or an error saying how to start one. */
export async function requireRepo(dir: string): Promise<WorkspaceRepo> {
  const repo = await findRepo(dir);
  if (!repo || !(await headCommit(repo)))
    throw new CoreError(
      'not_found',
      `${dir} has no history yet: it starts with the first save in the Studio (or \`capsule history --start\`).`,
    );
  return repo;
}
