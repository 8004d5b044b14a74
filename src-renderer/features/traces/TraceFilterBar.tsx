import type { TraceFilter } from './traceFilter';
import { shortId } from '../../ui/ShortId';

/** A task id as the picker shows it: its short form, as on the node, in the Tasks tab and in the console. */
const shortTask = (id: string) => (id === 'session' ? 'No task (session lines)' : `Task ${shortId(id)}`);

/** The live trace's filter: event type, task, and text anywhere in a line; says how many lines it shows. */
export function TraceFilterBar({
  filter,
  onFilter,
  types,
  tasks,
  shown,
}: {
  filter: TraceFilter;
  onFilter(f: TraceFilter): void;
  types: string[];
  tasks: string[];
  shown: number | null;
}) {
  return (
    <div className="trace-filter" role="search" aria-label="Filter the trace">
      <select
        className="select"
        aria-label="Event type"
        value={filter.type}
        onChange={(e) => onFilter({ ...filter, type: e.target.value })}
      >
        <option value="">All events</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <select
        className="select"
        aria-label="Task"
        value={filter.task}
        onChange={(e) => onFilter({ ...filter, task: e.target.value })}
      >
        <option value="">All tasks</option>
        {tasks.map((t) => (
          <option key={t} value={t} title={t}>
            {shortTask(t)}
          </option>
        ))}
      </select>
      <input
        type="search"
        className="input"
        aria-label="Filter text"
        placeholder="Filter text…"
        maxLength={200}
        value={filter.text}
        onChange={(e) => onFilter({ ...filter, text: e.target.value })}
      />
      {shown !== null ? (
        <span className="muted trace-filter-count" role="status">
          {shown.toLocaleString()} shown
        </span>
      ) : null}
    </div>
  );
}
