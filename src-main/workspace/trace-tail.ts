import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_ID_RE } from '../../src-shared/ids';
import type { TraceEvent } from '../../src-shared/trace';
import { CoreError } from '../../src-shared/contract';

// A slice of a session's trace.jsonl by line index, for live views catching up. The trace store
// (issue 6) answers big and past sessions faster; this reads the file, the source of truth. A torn
// last line (a write in progress) is left for the next call.

export function readTraceSlice(recordsRoot: string, sessionId: string, workdir: string | undefined, after: number, limit: number): { events: TraceEvent[]; next: number } {
  if (!SESSION_ID_RE.test(sessionId)) throw new CoreError('invalid_input', `${sessionId} is not a session id (ses_ and 32 hex digits).`);
  const file = join(workdir ?? join(recordsRoot, sessionId), 'trace.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CoreError('not_found', `No trace for session ${sessionId} under ${recordsRoot}.`);
  }
  const lines = text.split('\n');
  // The last piece is either '' (after the final newline) or a torn line still being written.
  lines.pop();
  const events: TraceEvent[] = [];
  let i = after;
  for (; i < lines.length && events.length < limit; i++) {
    try {
      events.push(JSON.parse(lines[i]) as TraceEvent);
    } catch {
      // A line that is not JSON is skipped (and counted), never fatal.
    }
  }
  return { events, next: i };
}
