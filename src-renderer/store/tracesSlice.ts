import type { EventPayload } from '../../src-shared/contract';
import type { TraceEvent } from '../../src-shared/trace';
import { describeError, invoke } from './client';
import type { SliceCreator, StudioState } from './types';

/**
 * The live trace of one session. Lines are appended in place (a burst of 10k/s would make
 * copying arrays per frame the bottleneck); `version` changes on every append so views re-render.
 */
export interface LiveTrace {
  sessionId: string;
  capsuleId?: string;
  events: TraceEvent[];
  /** Lines dropped from the front to keep memory bounded. */
  dropped: number;
  /** True once lines from the start of the session were fetched with trace.tail. */
  backfilled: boolean;
  version: number;
}

export interface TracesSlice {
  traces: Record<string, LiveTrace>;
  /** The session the trace panel shows. */
  traceSessionId: string | null;
  openTrace(sessionId: string | null): Promise<void>;
}

const MAX_LINES = 500_000;
const TAIL_PAGE = 10_000;

const keyOf = (e: TraceEvent) => `${e.ts}|${e.event_type}|${e.task_id ?? ''}`;

export function foldTraceAppends(state: StudioState, batches: EventPayload<'trace.appended'>[]): Partial<StudioState> {
  if (batches.length === 0) return {};
  const traces = { ...state.traces };
  for (const b of batches) {
    const cur = traces[b.sessionId] ?? { sessionId: b.sessionId, capsuleId: b.capsuleId, events: [], dropped: 0, backfilled: false, version: 0 };
    for (const e of b.events) cur.events.push(e);
    if (cur.events.length > MAX_LINES) {
      const cut = cur.events.length - MAX_LINES;
      cur.events.splice(0, cut);
      cur.dropped += cut;
    }
    traces[b.sessionId] = { ...cur, capsuleId: cur.capsuleId ?? b.capsuleId, version: cur.version + 1 };
  }
  return { traces };
}

export const createTracesSlice: SliceCreator<TracesSlice> = (set, get) => ({
  traces: {},
  traceSessionId: null,
  async openTrace(sessionId) {
    set({ traceSessionId: sessionId });
    if (!sessionId || get().traces[sessionId]?.backfilled) return;
    // Fetch what happened before the Studio was listening, then splice it in front of the live
    // lines, skipping the overlap (lines that arrived live while the tail was read).
    try {
      const earlier: TraceEvent[] = [];
      let after = 0;
      for (;;) {
        const page = await invoke('trace.tail', { sessionId, after, limit: TAIL_PAGE });
        earlier.push(...page.events);
        if (page.events.length < TAIL_PAGE) break;
        after = page.next;
      }
      set((s) => {
        const cur = s.traces[sessionId];
        const live = cur?.events ?? [];
        const seen = new Set(earlier.map(keyOf));
        let skip = 0;
        while (skip < live.length && seen.has(keyOf(live[skip]))) skip++;
        const events = earlier.concat(live.slice(skip));
        return {
          traces: { ...s.traces, [sessionId]: { sessionId, capsuleId: cur?.capsuleId, events, dropped: 0, backfilled: true, version: (cur?.version ?? 0) + 1 } },
        };
      });
    } catch (err) {
      get().notify('error', `Could not read the trace: ${describeError(err)}`);
    }
  },
});
