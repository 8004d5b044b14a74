import { join } from 'node:path';
import { SESSION_ID_RE } from '../../src-shared/ids';
import { CoreError } from '../../src-shared/contract';
import { readTraceLinesAt, type TraceSlice } from '../trace';

// A slice of a session's trace.jsonl by line index, for live views catching up. The trace store
// answers big and past sessions faster; this reads the file, the source of truth, from
// the nearest remembered line position (trace/line-index.ts). A torn last line (a write in
// progress) is left for the next call.

export async function readTraceSlice(
  recordsRoot: string,
  sessionId: string,
  workdir: string | undefined,
  q: { after?: number; last?: number; limit: number },
): Promise<TraceSlice> {
  if (!SESSION_ID_RE.test(sessionId))
    throw new CoreError('invalid_input', `${sessionId} is not a session id (ses_ and 32 hex digits).`);
  const file = join(workdir ?? join(recordsRoot, sessionId), 'trace.jsonl');
  try {
    return await readTraceLinesAt(file, q, sessionId);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CoreError('not_found', `No trace for session ${sessionId} under ${recordsRoot}.`);
    throw err;
  }
}
