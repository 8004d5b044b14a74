import type { TraceEvent } from '../../../src-shared/trace';

// The live trace's filter: by event type, by task, and by text anywhere in the line. It runs
// incrementally, as the grouping does: a batch appended to the session's events only visits the
// new lines, and the filtered list grows in place (same array), so a filtered trace of 100k lines
// costs a batch what an unfiltered one does. A changed filter, or a new events array, starts over.

export interface TraceFilter {
  /** An event_type, or '' for any. */
  type: string;
  /** A task id, 'session' for the lines of no task, or '' for any. */
  task: string;
  /** Words the line's JSON must hold (any case), or ''. */
  text: string;
}

export const NO_FILTER: TraceFilter = { type: '', task: '', text: '' };

/** The most characters of filter text used (a pasted page is not a filter). */
const MAX_TEXT = 200;

export const isFiltering = (f: TraceFilter) => !!(f.type || f.task || f.text.trim());

export interface FilteredTrace {
  events: TraceEvent[];
  /** The event types and tasks seen in the whole trace, for the pickers (same arrays until one is added). */
  types: string[];
  tasks: string[];
}

export function createTraceFilter() {
  let source: TraceEvent[] | null = null;
  let head: TraceEvent | undefined;
  let seen = 0;
  let key = '';
  let out: TraceEvent[] = [];
  const typeSet = new Set<string>();
  const taskSet = new Set<string>();
  let types: string[] = [];
  let tasks: string[] = [];

  return function update(events: TraceEvent[], filter: TraceFilter): FilteredTrace {
    const text = filter.text.trim().toLowerCase().slice(0, MAX_TEXT);
    const nextKey = `${filter.type}\0${filter.task}\0${text}`;
    if (events !== source || events[0] !== head || events.length < seen) {
      source = events;
      head = events[0];
      typeSet.clear();
      taskSet.clear();
      types = [];
      tasks = [];
      seen = 0;
      out = [];
    } else if (nextKey !== key) {
      // Another filter over the same lines: a new list (the pickers' sets only gain lines again).
      seen = 0;
      out = [];
    }
    key = nextKey;
    const filtering = !!(filter.type || filter.task || text);
    for (let i = seen; i < events.length; i++) {
      const e = events[i];
      const task = e.task_id ?? 'session';
      typeSet.add(e.event_type);
      taskSet.add(task);
      if (!filtering) continue;
      if (filter.type && e.event_type !== filter.type) continue;
      if (filter.task && task !== filter.task) continue;
      if (text && !JSON.stringify(e).toLowerCase().includes(text)) continue;
      out.push(e);
    }
    seen = events.length;
    if (types.length !== typeSet.size) types = [...typeSet].sort();
    if (tasks.length !== taskSet.size) tasks = [...taskSet];
    return { events: filtering ? out : events, types, tasks };
  };
}
