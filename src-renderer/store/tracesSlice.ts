import type { EventPayload } from '../../src-shared/contract';
import { invoke } from './client';
import { lazyActions } from './lazyActions';
import { CAP, capped } from './traceWindow';
import type { SliceCreator, StudioState } from './types';
import { TRACE_ACTIONS, type LiveTrace, type TracesSlice, type TraceCap } from './state/traces';
export type { LiveTrace, TracesSlice, TraceCap } from './state/traces';

export function foldTraceAppends(
  state: StudioState,
  batches: EventPayload<'trace.appended'>[],
  cap: TraceCap = CAP,
): Partial<StudioState> {
  // Lines of a session no view shows (a batch on its way when the view closed) are not kept.
  const shown = batches.filter((b) => b.sessionId === state.traceSessionId);
  if (shown.length === 0) return {};
  const traces = { ...state.traces };
  for (const b of shown) {
    const cur = traces[b.sessionId] ?? {
      sessionId: b.sessionId,
      capsuleId: b.capsuleId,
      events: [],
      nextLine: b.first,
      dropped: 0,
      backfilled: false,
      version: 0,
    };
    // Lines before `nextLine` are here already (read by trace.tail while this batch was on its way).
    for (let i = Math.max(0, cur.nextLine - b.first); i < b.events.length; i++) cur.events.push(b.events[i]);
    const nextLine = Math.max(cur.nextLine, b.first + b.events.length);
    traces[b.sessionId] = capped(
      { ...cur, capsuleId: cur.capsuleId ?? b.capsuleId, nextLine, version: cur.version + 1 },
      cap,
    );
  }
  return { traces };
}

/** Every session's lines but this one's. */
const without = (traces: Record<string, LiveTrace>, sessionId: string) => {
  const rest = { ...traces };
  delete rest[sessionId];
  return rest;
};

export const createTracesSlice: SliceCreator<TracesSlice> = (set, get, api) => ({
  // Following a session and reading its history load with the live trace view (traceActions.ts).
  ...lazyActions(TRACE_ACTIONS, () => import('./traceActions').then((m) => m.createTraceActions))(set, get, api),
  traces: {},
  traceSessionId: null,
  closeTrace(sessionId) {
    if (get().traceSessionId === sessionId) set({ traceSessionId: null });
    if (get().traces[sessionId]) set((s) => ({ traces: without(s.traces, sessionId) }));
    // A failed unfollow leaves a follow the core ends with the connection; lines for it are not kept.
    void invoke('trace.unfollow', { sessionId }).catch(() => undefined);
  },
  async refollowTrace() {
    const sessionId = get().traceSessionId;
    if (!sessionId) return;
    set((s) => ({ traceSessionId: null, traces: without(s.traces, sessionId) }));
    await get().openTrace(sessionId);
  },
});
