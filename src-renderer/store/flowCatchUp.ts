import { createFlowTracker, type DelegationUpdate, type TaskProgress, type TraceEvent } from '../../src-shared/trace';
import type { EventPayload } from '../../src-shared/contract';
import { invoke } from './client';
import { emptyBatch, type EventBatch } from './fold';
import type { StudioState } from './types';

// What a page that just (re)connected missed of the running sessions' flow: the delegations on the
// edges (a hop paused at a breakpoint among them) and each task's current turn (what it waits on).
// Read from the recent trace lines of each running session through the same tracker the core
// derives delegation.updated and task.progressed with, and folded as those events are, so a
// reloaded page or a second window draws the same picture as the page that watched it happen.
// Loaded on (re)connect, not on the first paint.

/** Trace lines read per running session: the recent past is what the canvas draws. */
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

/** Reads the running sessions' recent lines and hands their flow to `ingest` as one batch. */
export async function catchUpFlow(s: StudioState, ingest: (batch: EventBatch) => void): Promise<void> {
  const running = Object.values(s.capsules).filter((c) => c.sessionId);
  const batch = emptyBatch();
  await Promise.all(
    running.map(async (c) => {
      try {
        const { events } = await invoke('trace.tail', {
          sessionId: c.sessionId!,
          last: CATCH_UP_LINES,
          limit: CATCH_UP_LINES,
        });
        const flow = flowOf(c.sessionId!, c.id, events);
        if (flow.delegations) batch.delegations.push(flow.delegations);
        if (flow.progress) batch.progress.push(flow.progress);
      } catch {
        // The session ended meanwhile: nothing of it to draw.
      }
    }),
  );
  if (batch.delegations.length || batch.progress.length) ingest(batch);
}
