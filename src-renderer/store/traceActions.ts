import type { TraceEvent } from '../../src-shared/trace';
import { describeError, invoke } from './client';
import { BACKFILL, CAP, capped, liveStart, TAIL_PAGE } from './traceWindow';
import type { SliceCreator } from './types';
import type { LiveTrace, TRACE_ACTIONS, TracesSlice } from './state/traces';

// Following a session's trace and reading its recent history: loaded on the first call
// (tracesSlice.ts names it), which the live trace view makes when it opens.

export const createTraceActions: SliceCreator<Pick<TracesSlice, (typeof TRACE_ACTIONS)[number]>> = (set, get) => ({
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
