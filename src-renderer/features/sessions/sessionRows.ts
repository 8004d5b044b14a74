import type { SessionEventView } from '../../../src-shared/contract';

// The rows of a session's trace in the sessions browser: a header where the task changes, then
// its lines. (What a line says is src-shared/trace's describeTraceEvent.)

/** Rows of the trace list: a header where the task changes, then its events (by index). */
export type SessionRow =
  { kind: 'task'; key: string; taskId: string | null } | { kind: 'event'; key: string; index: number };

export function sessionRows(events: SessionEventView[]): SessionRow[] {
  const rows: SessionRow[] = [];
  let current: string | null | undefined;
  events.forEach((e, index) => {
    const task = e.task_id ?? null;
    if (task !== current) {
      current = task;
      rows.push({ kind: 'task', key: `h${e.seq}`, taskId: task });
    }
    rows.push({ kind: 'event', key: `e${e.seq}`, index });
  });
  return rows;
}
