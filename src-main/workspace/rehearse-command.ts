import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CoreError, type RehearsalMade } from '../../src-shared/contract';
import { makeRehearsal, saveRehearsal, type Rehearsal } from '../recording';
import { findTraceOfSession } from '../trace';
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

/** The rehearsal of a recorded session, from its trace (found under the records root when the index has no path). */
export async function rehearsalOfSession(
  recordsRoot: string,
  sessionId: string,
  tracePath: string | undefined,
  speed: number,
): Promise<Rehearsal> {
  const path = tracePath && existsSync(tracePath) ? tracePath : await findTraceOfSession(recordsRoot, sessionId);
  if (!path) throw new CoreError('not_found', `No records of session ${sessionId} on this machine.`);
  return makeRehearsal(path, { recordsRoot, speed });
}

export function saveWorkspaceRehearsal(ctx: StudioContext, sessionId: string, r: Rehearsal): RehearsalMade {
  const ws = ctx.workspace();
  const entry = r.run.capsules[0]?.capsule ?? 'session';
  const dir = freeFolder(join(ws.dir, REHEARSALS_FOLDER), `${entry}-${sessionId.slice(-6)}`);
  const written = saveRehearsal(dir, r);
  return { dir, capsules: Object.keys(written), notes: r.notes };
}
