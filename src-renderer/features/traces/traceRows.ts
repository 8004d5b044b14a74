import type { TraceEvent } from '../../../src-shared/trace';

/** One row of the trace list: a task's header, or one of its events (by index into the events). */
export type TraceRow = { kind: 'group'; key: string; count: number; last: string } | { kind: 'event'; index: number };

/**
 * Groups a session's events by task, incrementally: appending events only visits the new ones.
 * Events without a task (session start/end) form the "session" group. While new events all
 * belong to the last group (a burst inside one task), the rows grow in place instead of being
 * rebuilt: at 100k lines a rebuild per frame would cost more than the frame.
 */
export function createTraceGrouper() {
  let source: TraceEvent[] | null = null;
  let seen = 0;
  let order: string[] = [];
  let groups = new Map<string, number[]>();
  let rows: TraceRow[] = [];
  /** Where the last group's header sits in `rows`. */
  let lastHeader = -1;

  const header = (key: string, g: number[], events: TraceEvent[]): TraceRow => ({ kind: 'group', key, count: g.length, last: events[g[g.length - 1]].event_type });

  return {
    rows(events: TraceEvent[]): TraceRow[] {
      if (events !== source || events.length < seen) {
        source = events;
        seen = 0;
        order = [];
        groups = new Map();
        rows = [];
        lastHeader = -1;
      }
      const from = seen;
      const lastKey = order[order.length - 1];
      let onlyLast = lastHeader >= 0;
      for (; seen < events.length; seen++) {
        const key = events[seen].task_id ?? 'session';
        let g = groups.get(key);
        if (!g) {
          groups.set(key, (g = []));
          order.push(key);
        }
        g.push(seen);
        if (key !== lastKey) onlyLast = false;
      }
      if (from === seen) return rows;
      if (onlyLast) {
        rows = rows.slice();
        for (let i = from; i < seen; i++) rows.push({ kind: 'event', index: i });
        rows[lastHeader] = header(lastKey, groups.get(lastKey)!, events);
        return rows;
      }
      rows = [];
      for (const key of order) {
        const g = groups.get(key)!;
        lastHeader = rows.length;
        rows.push(header(key, g, events));
        for (const index of g) rows.push({ kind: 'event', index });
      }
      return rows;
    },
  };
}

const clip = (s: unknown, n = 120) => {
  const t = typeof s === 'string' ? s : JSON.stringify(s) ?? '';
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

/** A one-line summary of a trace event in product words. */
export function describeEvent(e: TraceEvent): string {
  const r = e as unknown as Record<string, unknown>;
  switch (e.event_type) {
    case 'session_start':
      return `session started: ${r.capsule}@${r.version} at ${r.url} (${r.driver}/${r.model})`;
    case 'session_end':
      return `session ended (${r.reason}): ${r.tasks} tasks, ${r.tokens_in}/${r.tokens_out} tokens`;
    case 'a2a_task_received':
      return `received ${r.method}${r.peer ? ` from ${r.peer}` : ''}: "${clip(r.text, 100)}"`;
    case 'task_start':
      return `task started in context ${r.context_id}`;
    case 'inference':
      return `turn ${r.turn}: ${r.tokens_in} in / ${r.tokens_out} out, ${r.stop_reason}, ${r.duration_ms} ms${r.text ? ` — ${clip(r.text, 90)}` : ''}`;
    case 'frame':
      return r.kind === 'text_delta' ? `turn ${r.turn} streaming: ${clip(r.text, 100)}` : `frame ${r.kind}`;
    case 'tool_call':
      return `tool call ${r.name}(${clip(r.arguments, 90)})`;
    case 'tool_result':
      return `tool ${r.name} ${r.ok ? 'returned' : 'failed'}: ${clip(r.result, 90)}`;
    case 'task_failed':
      return `failed (${r.cause}): ${clip(r.message)}`;
    case 'task_canceled':
      return `canceled by ${r.by}; interrupted ${r.interrupted}${Array.isArray(r.in_flight) && r.in_flight.length ? `, ${r.in_flight.length} left running` : ''}`;
    case 'task_end':
      return `ended ${String(r.state).replace('TASK_STATE_', '')}: ${r.turns} turns, ${r.tokens_in}/${r.tokens_out} tokens, ${r.duration_ms} ms`;
    default: {
      const { ts: _ts, event_type: _t, session_id: _s, task_id: _k, ...rest } = r;
      return `${e.event_type.replace(/_/g, ' ')} ${clip(rest)}`;
    }
  }
}

/** The kind of event, for its colour. */
export function eventTone(type: string): 'fail' | 'cancel' | 'a2a' | 'tool' | 'turn' | 'plain' {
  if (type.includes('fail') || type.includes('error')) return 'fail';
  if (type.includes('cancel')) return 'cancel';
  if (type.startsWith('a2a') || type.includes('peer') || type.includes('delegat')) return 'a2a';
  if (type.startsWith('tool')) return 'tool';
  if (type === 'inference') return 'turn';
  return 'plain';
}
