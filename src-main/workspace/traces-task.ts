import {
  MAX_TASK_TRACE_LINES,
  TASK_TRACE_TYPES,
  type ModelPriceView,
  type SessionEventView,
  type TaskTraceView,
} from '../../src-shared/contract';
import { pricePerMTok } from '../drivers';
import type { TraceStore } from '../trace';
import type { TraceIndexAccess } from './traces-index';
import { fallbackEvents } from './traces-fallback';

// One task's turns, tool calls and delegations for the task inspector, from the trace index
// (answered for running sessions too: the index follows their traces), with the price of the
// session's model so the Studio can say what the task cost. The figures are computed in the
// renderer from these lines; the price table stays in the core, where the spend ceiling uses it.

const TYPES: readonly string[] = TASK_TRACE_TYPES;
/** Without the index, at most this many lines of the file are read looking for the task's. */
const FALLBACK_SCAN_LINES = 200_000;
const FALLBACK_PAGE = 5000;

const priceOf = (model: string | null): ModelPriceView | null => {
  const p = model ? pricePerMTok(model) : undefined;
  return p ? { inPerMTok: p[0], outPerMTok: p[1] } : null;
};

export async function taskTraceFromIndex(
  index: TraceIndexAccess,
  s: TraceStore,
  sessionId: string,
  taskId: string,
): Promise<TaskTraceView> {
  const session = await index.refresh(s, sessionId);
  const page = await s.eventsAsync(sessionId, { task: taskId, types: [...TYPES], limit: MAX_TASK_TRACE_LINES });
  return {
    events: page.events,
    truncated: page.nextSeq !== null,
    model: session.model,
    driver: session.driver,
    price: priceOf(session.model),
    store: index.state(),
  };
}

/** The same from the trace file, where the index cannot open: slower, and bounded by FALLBACK_SCAN_LINES. */
export async function taskTraceFromFile(
  recordsRoot: string,
  sessionId: string,
  tracePath: string | undefined,
  taskId: string,
  store: TaskTraceView['store'],
): Promise<TaskTraceView> {
  const events: SessionEventView[] = [];
  let model: string | null = null;
  let driver: string | null = null;
  let truncated = false;
  for (let after = -1; after < FALLBACK_SCAN_LINES;) {
    const page = await fallbackEvents(recordsRoot, sessionId, tracePath, after, FALLBACK_PAGE);
    for (const e of page.events) {
      if (e.event_type === 'session_start') {
        const start = e as { model?: unknown; driver?: unknown };
        model = typeof start.model === 'string' ? start.model : null;
        driver = typeof start.driver === 'string' ? start.driver : null;
      } else if (e.task_id === taskId && TYPES.includes(e.event_type)) {
        if (events.length === MAX_TASK_TRACE_LINES) truncated = true;
        else events.push(e);
      }
    }
    if (page.next === null || truncated) break;
    after = page.next;
  }
  return { events, truncated, model, driver, price: priceOf(model), store };
}
