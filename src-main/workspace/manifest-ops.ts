import { CoreError } from '../../src-shared/contract';
import type { ManifestEditOp } from '../../src-shared/manifest';
import { editManifestSource } from '../manifest';
import type { StudioContext } from './context';

// The edits an edge makes to a manifest, applied to the file as it is on disk right now (so a
// concurrent hand edit is built upon), comments and layout kept. True when the file changed.

export function applyManifestOps(ctx: StudioContext, id: string, ops: ManifestEditOp[]): boolean {
  if (!ops.length) return false;
  const ws = ctx.workspace();
  const { source } = ws.readManifestNow(id);
  let next: string;
  try {
    next = editManifestSource(source, ops);
  } catch (err) {
    throw new CoreError('manifest_invalid', `${ws.capsule(id).manifestPath}: ${(err as Error).message}`);
  }
  if (next === source) return false;
  ws.writeManifest(id, next);
  return true;
}
