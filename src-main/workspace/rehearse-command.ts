import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CoreError, type RehearsalMade } from '../../src-shared/contract';
import { makeRehearsal, saveRehearsal } from '../recording';
import { findTraceFiles, sessionIdOfTrace } from '../trace';
import type { StudioContext } from './context';

// "Make rehearsal" in the sessions browser: the same conversion as `capsule rehearse`, saved in
// the open workspace's rehearsals/ folder as a workspace of its own (open it to run the replay).

export const REHEARSALS_FOLDER = 'rehearsals';

/** A folder name not taken yet: <capsule>-<last 6 of the session id>, then -2, -3, … */
function freeFolder(root: string, base: string): string {
  for (let n = 1; n < 1000; n++) {
    const dir = join(root, n === 1 ? base : `${base}-${n}`);
    if (!existsSync(dir)) return dir;
  }
  throw new CoreError('conflict', `${root} already holds a thousand rehearsals of this session.`);
}

export function makeWorkspaceRehearsal(ctx: StudioContext, recordsRoot: string, sessionId: string, tracePath: string | undefined, speed: number): RehearsalMade {
  const ws = ctx.workspace();
  const path = tracePath && existsSync(tracePath) ? tracePath : findTraceFiles(recordsRoot).find((p) => sessionIdOfTrace(p) === sessionId);
  if (!path) throw new CoreError('not_found', `No records of session ${sessionId} on this machine.`);
  const r = makeRehearsal(path, { recordsRoot, speed });
  const entry = r.run.capsules[0]?.capsule ?? 'session';
  const dir = freeFolder(join(ws.dir, REHEARSALS_FOLDER), `${entry}-${sessionId.slice(-6)}`);
  const written = saveRehearsal(dir, r);
  return { dir, capsules: Object.keys(written), notes: r.notes };
}
