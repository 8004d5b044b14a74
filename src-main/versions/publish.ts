import { access, cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CoreError, type PublishedView } from '../../src-shared/contract';
import { runWorkspaceTests, TESTS_FOLDER, type TestOutcome } from '../regression';
import { FORMATION_FILE } from '../workspace';
import { findRepo, type WorkspaceRepo } from './repo';
import { resolveVersion, saveStep, shortVersion, type Step } from './history';
import { readVersion } from './snapshot';
import { readPublished, writePublished } from './published';

// Publish: the version outside callers get. The workspace's saved tests run first against that
// version (its formation and manifests, today's tests); a failing test refuses the publish unless
// the user overrides it, and the override is written into the history with the tests it skipped.
// Rolling back is publishing an earlier version, the same way.

export interface PublishOutcome {
  /** Null when the publish was refused. */
  published: PublishedView | null;
  /** The step recording the publish. */
  step?: Step;
  /** The tests run against the version, in order. */
  results: TestOutcome[];
}

/** Whether a path exists, asked off the main thread. */
export const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Writes a version's formation.yaml and manifests into `target` (a folder that must not exist yet),
 * off the main thread (a version holds any number of manifests).
 */
export async function materialize(repo: WorkspaceRepo, oid: string, target: string): Promise<void> {
  const files = await readVersion(repo, oid, {});
  if (!files) throw new CoreError('not_found', `Version ${shortVersion(oid)} holds no formation of this workspace.`);
  // Written aside and renamed, so a folder that exists is whole (two publishes may race for it).
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await mkdir(tmp, { recursive: true });
  for (const c of files.capsules) {
    await mkdir(dirname(join(tmp, c.path)), { recursive: true });
    await writeFile(join(tmp, c.path), c.source);
  }
  await writeFile(join(tmp, FORMATION_FILE), files.formation);
  await mkdir(dirname(target), { recursive: true });
  try {
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    if (!(await exists(target))) throw err;
  }
}

/** Runs today's tests against a version of the workspace, in a scratch copy. */
async function testVersion(
  dir: string,
  repo: WorkspaceRepo,
  oid: string,
  signal?: AbortSignal,
): Promise<TestOutcome[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'capsule-publish-'));
  try {
    const copy = join(scratch, 'ws');
    await materialize(repo, oid, copy);
    // The saved tests (a folder of any size) are copied off the main thread.
    if (await exists(join(dir, TESTS_FOLDER)))
      await cp(join(dir, TESTS_FOLDER), join(copy, TESTS_FOLDER), { recursive: true });
    return await runWorkspaceTests(copy, signal);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export interface PublishOptions {
  /** The version to publish (default: the draft, saved as a step first). */
  version?: string;
  /** Publish even when tests fail; the history records which. */
  override?: boolean;
  /** Stops the tests (and so the publish) when its caller stops waiting; nothing is published then. */
  signal?: AbortSignal;
}

export async function publishVersion(dir: string, opts: PublishOptions = {}): Promise<PublishOutcome> {
  let repo = await findRepo(dir);
  if (opts.version === undefined) {
    // The draft is what is on disk: saved as a step, so the published version is one the history holds.
    await saveStep(dir, 'Save the draft to publish it');
    repo ??= await findRepo(dir);
  }
  if (!repo)
    throw new CoreError(
      'not_found',
      `${dir} has no history yet: publish the draft first (a version is a step of the history).`,
    );
  const oid = await resolveVersion(repo, opts.version ?? 'HEAD');
  const results = await testVersion(dir, repo, oid, opts.signal);
  const failing = results.filter((r) => !r.passed).map((r) => r.name);
  if (failing.length && !opts.override) return { published: null, results };
  const published = await writePublished(dir, oid, failing);
  const what = failing.length
    ? `tests overridden: ${failing.join(', ')} failing`
    : results.length
      ? `${results.length} test${results.length === 1 ? '' : 's'} passed`
      : 'no tests';
  const { step } = await saveStep(dir, `Publish ${shortVersion(oid)} (${what})`);
  return { published, results, ...(step ? { step } : {}) };
}

/**
 * The published version as a workspace folder (under `cacheRoot`, one folder per version, written
 * once), for what ships it elsewhere (`deploy kubernetes`); undefined when nothing is published.
 */
export async function publishedWorkspace(
  dir: string,
  cacheRoot: string,
): Promise<{ folder: string; published: PublishedView } | undefined> {
  const published = await readPublished(dir);
  const repo = published && (await findRepo(dir));
  if (!published || !repo) return undefined;
  const folder = join(cacheRoot, published.version);
  if (!(await exists(folder))) await materialize(repo, published.version, folder);
  return { folder, published };
}
