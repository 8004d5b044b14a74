import { existsSync } from 'node:fs';
import { CoreError, type ReplayRun } from '../../src-shared/contract';
import { replayOf } from '../recording';
import { findTraceOfSession } from '../trace';

// "Replay" in the sessions browser and the command palette: the recorded run read from its
// traces, for the Studio to play on the canvas. Reads files only: no session starts, no door is called.

export async function replayRecordedRun(
  recordsRoot: string,
  sessionId: string,
  tracePath: string | undefined,
  taskId?: string,
): Promise<ReplayRun> {
  const path = tracePath && existsSync(tracePath) ? tracePath : await findTraceOfSession(recordsRoot, sessionId);
  if (!path) throw new CoreError('not_found', `No records of session ${sessionId} on this machine.`);
  const run = await replayOf(path, recordsRoot, taskId ? { taskId } : {});
  if (taskId && run.lines.every((l) => l.event.task_id !== taskId))
    throw new CoreError('not_found', `Session ${sessionId} has no task ${taskId}.`);
  return run;
}
