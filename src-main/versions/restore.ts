import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomicAsync, FORMATION_FILE } from '../workspace';
import { CoreError } from '../../src-shared/contract';
import { headCommit, readAt } from './repo';
import { readVersion, readWorkingVersion } from './snapshot';
import { listSteps, requireRepo, resolveVersion, saveStep, serialized, shortVersion, type Step } from './history';

// Restore puts a version's formation.yaml and manifests back on disk and saves that as a new step,
// so the steps after that version stay in the history and can be restored in turn. Saved tests
// stay as they are: they judge the formation, whichever version it is. The files are removed and
// written off the main thread (a version holds any number of manifests).

export async function restoreVersion(dir: string, version: string): Promise<Step> {
  const repo = await requireRepo(dir);
  const oid = await resolveVersion(repo, version);
  await serialized(dir, async () => {
    const cache = {};
    const files = await readVersion(repo, oid, cache);
    if (!files)
      throw new CoreError('not_found', `Version ${shortVersion(oid)} has no ${FORMATION_FILE} in this workspace.`);
    const head = await headCommit(repo);
    const keep = new Set(files.capsules.map((c) => c.path));
    // A manifest the version lacks goes only when the history holds it (so it can come back).
    for (const c of (await readWorkingVersion(dir)).capsules) {
      if (keep.has(c.path) || !head || (await readAt(repo, head, c.path, cache)) !== c.source) continue;
      await rm(join(dir, c.path), { force: true });
    }
    for (const c of files.capsules) {
      await mkdir(dirname(join(dir, c.path)), { recursive: true });
      await writeFileAtomicAsync(join(dir, c.path), c.source);
    }
    await writeFileAtomicAsync(join(dir, FORMATION_FILE), files.formation);
  });
  const { step } = await saveStep(dir, `Restore version ${shortVersion(oid)}`);
  if (step) return step;
  // The files were that version already: the step that holds them is the answer.
  return (await listSteps(dir, 1))[0];
}
