import type { TraceEvent } from '../../../src-shared/trace';

/** One row of the trace list: a task's header, or one of its events (by index into the events). */
export type TraceRow = { kind: 'group'; key: string; count: number; last: string } | { kind: 'event'; index: number };

/** The grouped rows of a trace, read by position: a virtualized list only asks for what it shows. */
export interface TraceRowsView {
  count: number;
  rowAt(position: number): TraceRow;
  /** The position of the header of the group holding `position`. */
  headerOf(position: number): number;
  /** The position of the row of the event at `index` in the events (-1 when it is not grouped). */
  positionOf(index: number): number;
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
        if (position === g.start)
          return {
            kind: 'group',
            key: g.key,
            count: g.lines.length,
            last: events[g.lines[g.lines.length - 1]].event_type,
          };
        return { kind: 'event', index: g.lines[position - g.start - 1] };
      },
      headerOf: (position) => find(position).start,
      positionOf(index) {
        const e = events[index];
        const g = e ? byKey.get(e.task_id ?? 'session') : undefined;
        if (!g) return -1;
        let lo = 0;
        let hi = g.lines.length - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (g.lines[mid] === index) return g.start + 1 + mid;
          if (g.lines[mid] < index) lo = mid + 1;
          else hi = mid - 1;
        }
        return -1;
      },
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
