import type { TraceStore } from './store';
import type { SessionSummary, TaskSummary } from './queries';

// A task that never ended is interrupted, not running, once its process is gone: the session's
// process, or an earlier one of a resumed session (the task began before the latest session_start).
// One rule for `capsule trace show` and the Studio's sessions browser.

const FINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);

/** A resumed session has several starts: bounded, one resumed more than 1000 times is read on its first 1000. */
const STARTS = { types: ['session_start'], limit: 1000 };

/** When the running process took over, from the session's starts: the latest one's time, or null for a single start. */
const liveSinceOfStarts = (starts: readonly { ts: string }[]): number | null =>
  starts.length > 1 ? Date.parse(starts[starts.length - 1].ts) : null;

/** When the running process of a session took over (a resumed session has several starts), or null. */
export function liveSinceOf(store: Pick<TraceStore, 'events'>, s: SessionSummary): number | null {
  if (s.status !== 'running') return null;
  return liveSinceOfStarts(store.events(s.id, STARTS).events);
}

/** liveSinceOf for the Studio's commands at run time: the trace lines are read off the main thread. */
export async function liveSinceOfAsync(
  store: Pick<TraceStore, 'eventsAsync'>,
  s: SessionSummary,
): Promise<number | null> {
  if (s.status !== 'running') return null;
  return liveSinceOfStarts((await store.eventsAsync(s.id, STARTS)).events);
}

/** Whether a task was cut off by its process going away (no final state, and no live process runs it). */
export function taskInterrupted(
  t: Pick<TaskSummary, 'state' | 'startedAt' | 'receivedAt'>,
  sessionLive: boolean,
  liveSince: number | null,
): boolean {
  if (FINAL.has(t.state)) return false;
  const began = t.startedAt ?? t.receivedAt;
  const beforeResume = liveSince !== null && began !== null && began < liveSince;
  return !sessionLive || beforeResume;
}
