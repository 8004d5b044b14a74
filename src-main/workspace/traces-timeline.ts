import type { TimelineBar, TimelineTruncation } from '../../src-shared/contract';
import type { TraceStore } from '../trace';

// Tasks of several sessions as bars on one time axis, each linked to the task that caused it.
// An orchestrator's a2a_send carries its own task id (task_id) and the peer's (peer_task_id); the
// worker's a2a_task_received carries the traceparent whose trace id is the orchestrator task's
// (src-main/peer/traceparent.ts). The peer task id links exactly; the trace id links the rest
// (a send whose answer never came back, or a hop further down the formation).

const LINK_TYPES = ['a2a_send', 'a2a_task_received'];
/** Bars in one answer: a session of 100k tasks draws its first ones and says how many it left out. */
export const MAX_BARS = 2000;

const traceIdOf = (tp: unknown): string | undefined =>
  typeof tp === 'string' ? /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(tp.trim())?.[1] : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** The sessions' tasks as bars (the first MAX_BARS in all, in the order the sessions are given). */
export async function timelineBars(
  store: TraceStore,
  sessionIds: string[],
): Promise<{ bars: TimelineBar[]; truncated: TimelineTruncation[] }> {
  const bars: TimelineBar[] = [];
  const truncated: TimelineTruncation[] = [];
  const causeByPeerTask = new Map<string, string>();
  const causeByTrace = new Map<string, string>();
  const received = new Map<string, string>(); // task id -> traceparent
  const now = Date.now();
  for (const id of sessionIds) {
    const session = store.getSession(id);
    if (!session) continue;
    const sessionEnd = session.endedAt ?? (session.status === 'running' ? now : (session.lastTs ?? now));
    const room = MAX_BARS - bars.length;
    const tasks = store.listTasks(id, { limit: room });
    if (tasks.length < session.tasks)
      truncated.push({ sessionId: id, capsule: session.capsule ?? id, shown: tasks.length, total: session.tasks });
    for (const t of tasks) {
      const start = t.receivedAt ?? t.startedAt;
      if (start === null) continue;
      // A task's own id names its outgoing trace when it did not arrive with one.
      const hex = /^tsk_([0-9a-f]{32})$/.exec(t.id)?.[1];
      if (hex && !causeByTrace.has(hex)) causeByTrace.set(hex, t.id);
      bars.push({
        sessionId: id,
        capsule: session.capsule ?? id,
        taskId: t.id,
        start,
        end: Math.max(start, t.endedAt ?? sessionEnd),
        open: t.endedAt === null,
        state: t.state,
        text: t.text,
      });
    }
    // The links of the tasks drawn: their receipts and sends come among the session's first lines.
    const page = await store.eventsAsync(id, { types: LINK_TYPES, limit: Math.max(100, 4 * tasks.length) });
    for (const e of page.events) {
      const rec = e as Record<string, unknown>;
      const task = str(rec.task_id);
      if (e.event_type === 'a2a_send') {
        const peerTask = str(rec.peer_task_id);
        if (task && peerTask && peerTask !== task) causeByPeerTask.set(peerTask, task);
        const trace = traceIdOf(rec.traceparent);
        if (task && trace && !causeByTrace.has(trace)) causeByTrace.set(trace, task);
      } else if (task && str(rec.traceparent)) {
        received.set(task, rec.traceparent as string);
      }
    }
  }
  for (const bar of bars) {
    const traceparent = received.get(bar.taskId);
    if (traceparent) bar.traceparent = traceparent;
    const trace = traceIdOf(traceparent);
    const parent = causeByPeerTask.get(bar.taskId) ?? (trace ? causeByTrace.get(trace) : undefined);
    if (parent && parent !== bar.taskId) bar.parentTaskId = parent;
  }
  return { bars: bars.sort((a, b) => a.start - b.start), truncated };
}
