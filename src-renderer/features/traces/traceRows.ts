import type { TraceEvent } from '../../../src-shared/trace';

/** One row of the trace list: a task's header, or one of its events (by index into the events). */
export type TraceRow = { kind: 'group'; key: string; count: number; last: string } | { kind: 'event'; index: number };

/** The grouped rows of a trace, read by position: a virtualized list only asks for what it shows. */
export interface TraceRowsView {
  count: number;
  rowAt(position: number): TraceRow;
  /** The position of the header of the group holding `position`. */
  headerOf(position: number): number;
}

interface Group {
  key: string;
  /** Indexes into the events, in order. */
  lines: number[];
  /** Position of the group's header row. */
  start: number;
}

/**
 * Groups a session's events by task, incrementally: appending events only visits the new ones
 * and the groups (a few per task), never the rows already grouped, so a batch costs the same at
 * 100k lines as at 100. Events without a task (session start/end) form the "session" group.
 * A new `events` array (history spliced in, lines dropped by the cap), or one whose first line
 * changed, starts the grouping over.
 */
export function createTraceGrouper() {
  let source: TraceEvent[] | null = null;
  let head: TraceEvent | undefined;
  let seen = 0;
  let groups: Group[] = [];
  let byKey = new Map<string, Group>();
  let view: TraceRowsView | null = null;

  const find = (position: number): Group => {
    let lo = 0;
    let hi = groups.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (groups[mid].start <= position) lo = mid;
      else hi = mid - 1;
    }
    return groups[lo];
  };

  const makeView = (events: TraceEvent[]): TraceRowsView => {
    let count = 0;
    for (const g of groups) {
      g.start = count;
      count += 1 + g.lines.length;
    }
    return {
      count,
      rowAt(position) {
        const g = find(position);
        if (position === g.start) return { kind: 'group', key: g.key, count: g.lines.length, last: events[g.lines[g.lines.length - 1]].event_type };
        return { kind: 'event', index: g.lines[position - g.start - 1] };
      },
      headerOf: (position) => find(position).start,
    };
  };

  return {
    /** The rows for `events`; the same view back while nothing was appended. */
    update(events: TraceEvent[]): TraceRowsView {
      if (events !== source || events.length < seen || (seen > 0 && events[0] !== head)) {
        source = events;
        seen = 0;
        groups = [];
        byKey = new Map();
        view = null;
      }
      if (view && seen === events.length) return view;
      for (; seen < events.length; seen++) {
        const key = events[seen].task_id ?? 'session';
        let g = byKey.get(key);
        if (!g) {
          byKey.set(key, (g = { key, lines: [], start: 0 }));
          groups.push(g);
        }
        g.lines.push(seen);
      }
      head = events[0];
      return (view = makeView(events));
    },
  };
}

/** Every row of a view, in order (for tests and small traces). */
export const allRows = (view: TraceRowsView): TraceRow[] => Array.from({ length: view.count }, (_, i) => view.rowAt(i));

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
      // The fragment first: in a narrow panel the words after it are the ones cut off.
      return r.kind === 'text_delta' ? `${clip(String(r.text ?? '').trim(), 100)} (turn ${r.turn} streaming)` : `frame ${r.kind}`;
    case 'tool_call':
      return `tool call ${r.name}(${clip(r.arguments, 90)})`;
    case 'tool_result':
      return `tool ${r.name} ${r.ok ? 'returned' : 'failed'}: ${clip(r.result, 90)}`;
    case 'task_failed':
      return `failed (${r.cause}): ${clip(r.message)}`;
    case 'task_canceled':
      return `canceled by ${r.by}; interrupted ${r.interrupted}${Array.isArray(r.in_flight) && r.in_flight.length ? `, ${r.in_flight.length} left running` : ''}`;
    case 'task_end':
      return `ended ${String(r.state).replace('TASK_STATE_', '')}: ${r.turns} turn${r.turns === 1 ? '' : 's'}, ${r.tokens_in}/${r.tokens_out} tokens, ${r.duration_ms} ms`;
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
