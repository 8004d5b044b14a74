import { createFlowTracker, type DelegationUpdate, type TaskProgress, type TraceEvent } from '../../src-shared/trace';
import type { CapsuleView, EventPayload } from '../../src-shared/contract';
import { invoke } from './client';
import { hasWork } from './phase';
import { emptyBatch, type EventBatch } from './fold';
import type { StudioState } from './types';

// What a page that just (re)connected missed of the running sessions' flow: the delegations on the
// edges (a hop paused at a breakpoint among them) and each task's current turn (what it waits on).
// Only sessions with work in hand are read (a task running, paused at a breakpoint, or queued:
// `hasWork`): an idle session has nothing in flight to draw, and a formation may have hundreds.
// Read from the recent trace lines of each such session through the same tracker the core
// derives delegation.updated and task.progressed with, and folded as those events are, so a
// reloaded page or a second window draws the same picture as the page that watched it happen.
// Loaded on (re)connect, not on the first paint.
// An idle session is read later, once, when a view first needs its recent past (the console
// showing a conversation with that capsule: `catchUpIdle`), so a finished task's delegations
// read after a reload as they did before it, without reading every session on each reconnect.

/** Trace lines read per session with work: the recent past is what the canvas draws. */
export const CATCH_UP_LINES = 2000;

/** The flow events the recent lines of one session would have sent. */
export function flowOf(
  sessionId: string,
  capsuleId: string,
  lines: readonly TraceEvent[],
): { delegations?: EventPayload<'delegation.updated'>; progress?: EventPayload<'task.progressed'> } {
  const tracker = createFlowTracker();
  const delegations = new Map<string, DelegationUpdate>();
  const progress = new Map<string, TaskProgress>();
  for (const line of lines) {
    const out = tracker.push(line);
    for (const d of out.delegation ?? []) delegations.set(`${d.taskId}\0${d.callId}`, d);
    if (out.progress) progress.set(out.progress.taskId, out.progress);
    // A task that ended has no current turn.
    if (
      line.task_id &&
      (line.event_type === 'task_end' || line.event_type === 'task_canceled' || line.event_type === 'task_failed')
    )
      progress.delete(line.task_id);
  }
  return {
    ...(delegations.size ? { delegations: { sessionId, capsuleId, delegations: [...delegations.values()] } } : {}),
    ...(progress.size ? { progress: { sessionId, capsuleId, tasks: [...progress.values()] } } : {}),
  };
}

/** Whether the page already holds a later state of this delegation (a live event that came while the lines were read). */
export function knownLater(s: Pick<StudioState, 'edgeFlow'>, d: DelegationUpdate): boolean {
  return Object.values(s.edgeFlow).some((f) =>
    f.hops.some((h) => h.taskId === d.taskId && h.callId === d.callId && h.ts > d.ts),
  );
}

/** Reads the recent lines of the sessions with work and hands their flow to `ingest` as one batch. */
export async function catchUpFlow(get: () => StudioState, ingest: (batch: EventBatch) => void): Promise<void> {
  await catchUpSessions(get, ingest, Object.values(get().capsules).filter(hasWork));
}

/** Idle sessions read since the link to the core last came up (each at most once). */
const idleRead = new Set<string>();

/** The link dropped: what idle sessions wrote meanwhile is read again when a view next needs it. */
export function forgetIdleReads(): void {
  idleRead.clear();
}

/**
 * Reads the recent lines of an idle capsule's session once (a session with work was read on
 * connect and sends its events live), so its finished tasks' delegations show again.
 */
export async function catchUpIdle(
  get: () => StudioState,
  ingest: (batch: EventBatch) => void,
  capsuleId: string,
): Promise<void> {
  const c = get().capsules[capsuleId];
  if (!c?.sessionId || hasWork(c) || idleRead.has(c.sessionId)) return;
  idleRead.add(c.sessionId);
  await catchUpSessions(get, ingest, [c]);
}

async function catchUpSessions(
  get: () => StudioState,
  ingest: (batch: EventBatch) => void,
  capsules: readonly CapsuleView[],
): Promise<void> {
  const flows = await Promise.all(
    capsules.map(async (c) => {
      try {
        const { events } = await invoke('trace.tail', {
          sessionId: c.sessionId!,
          last: CATCH_UP_LINES,
          limit: CATCH_UP_LINES,
        });
        return flowOf(c.sessionId!, c.id, events);
      } catch {
        return {}; // the session ended meanwhile: nothing of it to draw
      }
    }),
  );
  const s = get();
  const batch = emptyBatch();
  for (const flow of flows) {
    const fresh = flow.delegations?.delegations.filter((d) => !knownLater(s, d)) ?? [];
    if (fresh.length) batch.delegations.push({ ...flow.delegations!, delegations: fresh });
    if (flow.progress) batch.progress.push(flow.progress);
  }
  if (batch.delegations.length || batch.progress.length) ingest(batch);
}
