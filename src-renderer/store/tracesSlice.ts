import type { EventPayload } from '../../src-shared/contract';
import type { TraceEvent } from '../../src-shared/trace';
import { describeError, invoke } from './client';
import type { SliceCreator, StudioState } from './types';
import type { LiveTrace, TracesSlice, TraceCap } from './state/traces';
export type { LiveTrace, TracesSlice, TraceCap } from './state/traces';

const CAP: TraceCap = { max: 500_000, keep: 450_000 };
const TAIL_PAGE = 10_000;
/** Lines of history a live view loads when it opens (older ones are read in the sessions browser). */
const BACKFILL = 100_000;

/** Drops the oldest lines into a new array, so views indexing the old one see a new identity and start over. */
function capped(t: LiveTrace, cap: TraceCap): LiveTrace {
  if (t.events.length <= cap.max) return t;
  const cut = t.events.length - cap.keep;
  return { ...t, events: t.events.slice(cut), dropped: t.dropped + cut };
}

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

/** Where the live lines held for a session start in trace.jsonl (they arrive without gaps). */
const liveStart = (t: LiveTrace | undefined) => (t ? t.nextLine - t.events.length : Infinity);

/** Every session's lines but this one's. */
const without = (traces: Record<string, LiveTrace>, sessionId: string) => {
  const rest = { ...traces };
  delete rest[sessionId];
  return rest;
};

export const createTracesSlice: SliceCreator<TracesSlice> = (set, get) => ({
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
  async openTrace(sessionId) {
    const before = get().traceSessionId;
    if (before && before !== sessionId) get().closeTrace(before);
    if (sessionId && before === sessionId) return;
    set({ traceSessionId: sessionId });
    if (!sessionId) return;
    // Follow first, so lines written while the history is read arrive live; then fetch what
    // happened before and splice it in front of the live lines by line index: history holds
    // lines [0, after), live ones [liveStart, nextLine).
    try {
      await invoke('trace.follow', { sessionId });
    } catch (err) {
      get().notify('error', `Could not follow the trace: ${describeError(err)}`);
      return;
    }
    try {
      // The last BACKFILL lines at most: a long session's older lines are the sessions browser's.
      const earlier: TraceEvent[] = [];
      let from = 0;
      let after = 0;
      for (let first = true; ; first = false) {
        const page = await invoke(
          'trace.tail',
          first ? { sessionId, last: BACKFILL, limit: TAIL_PAGE } : { sessionId, after, limit: TAIL_PAGE },
        );
        if (first) after = from = page.from;
        for (const e of page.events) earlier.push(e);
        const moved = page.next > after;
        after = page.next;
        // A short page is the end of the file as it was read; read on while live lines start
        // past it (they were written after that read), unless the file stopped growing.
        const live = get().traces[sessionId];
        if (page.events.length < TAIL_PAGE && (!live || after >= liveStart(live) || !moved)) break;
        if (get().traceSessionId !== sessionId) return;
      }
      set((s) => {
        // The view closed (or shows another session) while the history was read.
        if (s.traceSessionId !== sessionId) return {};
        const cur = s.traces[sessionId];
        if (cur?.backfilled) return {};
        const start = liveStart(cur);
        // Live lines reaching back to the history's start already hold it all.
        const covered = cur !== undefined && start <= from;
        const live = cur?.events ?? [];
        const events = covered ? live : earlier.concat(live.slice(Math.max(0, after - start)));
        const t: LiveTrace = {
          sessionId,
          capsuleId: cur?.capsuleId,
          events,
          nextLine: Math.max(after, cur?.nextLine ?? 0),
          dropped: covered ? start : from,
          backfilled: true,
          version: (cur?.version ?? 0) + 1,
        };
        return { traces: { ...s.traces, [sessionId]: capped(t, CAP) } };
      });
    } catch (err) {
      get().notify('error', `Could not read the trace: ${describeError(err)}`);
    }
  },
});
