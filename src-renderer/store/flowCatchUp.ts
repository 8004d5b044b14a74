import { createFlowTracker, type DelegationUpdate, type TaskProgress, type TraceEvent } from '../../src-shared/trace';
import type { EventPayload } from '../../src-shared/contract';
import type { ConsoleEntry } from './conversations';
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
// A session without work in hand (idle, or stopped) is read later, once, when a view first needs
// its recent past (the console showing a conversation whose tasks it ran: `catchUpEntries`), so a
// finished task's delegations read after a reload as they did before it, without reading every
// session on each reconnect.

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

/** A session whose recent trace lines are to be read, and the capsule that ran it (its edges draw the flow). */
export interface FlowRead {
  sessionId: string;
  capsuleId: string;
}

/** Reads the recent lines of the sessions with work and hands their flow to `ingest` as one batch. */
export async function catchUpFlow(get: () => StudioState, ingest: (batch: EventBatch) => void): Promise<void> {
  const withWork = Object.values(get().capsules).filter(hasWork);
  const reads = withWork.map((c) => ({ sessionId: c.sessionId!, capsuleId: c.id }));
  await readSessions(get, ingest, reads, true);
}

/** Sessions read for a view since the link to the core last came up (each at most once). */
const readForViews = new Set<string>();

/** The link dropped: what those sessions wrote meanwhile is read again when a view next needs it. */
export function forgetViewReads(): void {
  readForViews.clear();
}

/**
 * The sessions a view showing these console entries still has to read, each once per connection:
 * the session that ran each task whose delegations the page did not see (named by the entry; an
 * entry kept before entries named it: its capsule's running session), unless that session has
 * work in hand (read on connect and followed live). An idle session and a stopped one read alike.
 */
export function sessionsToRead(
  s: Pick<StudioState, 'capsules' | 'delegations' | 'linked'>,
  entries: readonly Pick<ConsoleEntry, 'capsuleId' | 'taskId' | 'sessionId'>[],
): FlowRead[] {
  if (!s.linked) return [];
  const reads = new Map<string, FlowRead>();
  for (const e of entries) {
    if (!e.taskId || s.delegations[e.taskId]) continue;
    const sessionId = e.sessionId ?? s.capsules[e.capsuleId]?.sessionId;
    if (!sessionId || readForViews.has(sessionId) || reads.has(sessionId)) continue;
    const running = Object.values(s.capsules).find((c) => c.sessionId === sessionId);
    if (running && hasWork(running)) continue;
    reads.set(sessionId, { sessionId, capsuleId: e.capsuleId });
  }
  return [...reads.values()];
}

/**
 * Reads, once per connection, the recent lines of the sessions that ran these entries' tasks
 * (`sessionsToRead`), so their finished tasks' delegations and the edges' marks show again.
 */
export async function catchUpEntries(
  get: () => StudioState,
  ingest: (batch: EventBatch) => void,
  entries: readonly Pick<ConsoleEntry, 'capsuleId' | 'taskId' | 'sessionId'>[],
): Promise<void> {
  const reads = sessionsToRead(get(), entries);
  for (const r of reads) readForViews.add(r.sessionId);
  if (reads.length) await readSessions(get, ingest, reads, false);
}

async function readSessions(
  get: () => StudioState,
  ingest: (batch: EventBatch) => void,
  reads: readonly FlowRead[],
  /** Whether to take what each task waits on: a session without work in hand has no task running. */
  withProgress: boolean,
): Promise<void> {
  const flows = await Promise.all(
    reads.map(async ({ sessionId, capsuleId }) => {
      try {
        const { events } = await invoke('trace.tail', { sessionId, last: CATCH_UP_LINES, limit: CATCH_UP_LINES });
        return flowOf(sessionId, capsuleId, events);
      } catch {
        return {}; // no trace of it (its records were removed): nothing of it to draw
      }
    }),
  );
  const s = get();
  const batch = emptyBatch();
  for (const flow of flows) {
    const fresh = flow.delegations?.delegations.filter((d) => !knownLater(s, d)) ?? [];
    if (fresh.length) batch.delegations.push({ ...flow.delegations!, delegations: fresh });
    if (withProgress && flow.progress) batch.progress.push(flow.progress);
  }
  if (batch.delegations.length || batch.progress.length) ingest(batch);
}
