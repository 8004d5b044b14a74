import { readFileSync } from 'node:fs';
import type { Session } from './api';

/** The session's trace lines so far (flushed first); test and tooling support. */
export function traceLines(session: Session): Array<Record<string, any>> {
  session.trace.flushSync();
  return readFileSync(session.trace.path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
