import type { VersionDiffView } from '../../src-shared/contract';
import { requireRepo, resolveVersion, shortVersion } from './history';
import { diffVersions } from './diff';
import { readVersion, readWorkingVersion, type VersionFiles } from './snapshot';
import type { WorkspaceRepo } from './repo';
import { CoreError } from '../../src-shared/contract';

// `capsule diff` and the Studio's diff view: two versions of a workspace (the second one the files
// on disk now unless named) compared as the canvas sees them.

async function filesOf(repo: WorkspaceRepo, oid: string, cache: object): Promise<VersionFiles> {
  const files = await readVersion(repo, oid, cache);
  if (!files) throw new CoreError('not_found', `Version ${shortVersion(oid)} holds no formation of this workspace.`);
  return files;
}

export async function compareVersions(dir: string, from: string, to?: string): Promise<VersionDiffView> {
  const repo = await requireRepo(dir);
  const cache = {};
  const a = await resolveVersion(repo, from);
  const before = await filesOf(repo, a, cache);
  if (to === undefined) return diffVersions(shortVersion(a), 'draft', before, await readWorkingVersion(dir));
  const b = await resolveVersion(repo, to);
  return diffVersions(shortVersion(a), shortVersion(b), before, await filesOf(repo, b, cache));
}
