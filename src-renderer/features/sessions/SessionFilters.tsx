import { useEffect, useMemo, useRef, useState } from 'react';
import { useStudio, type SessionFilter } from '../../store';

// datetime-local speaks local wall time without a zone; the filter speaks epoch ms.
const toInput = (ms: number | null) =>
  ms === null ? '' : new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
const fromInput = (v: string) => (v ? new Date(v).getTime() : null);

/** Search text (debounced), capsule, state and a start-time range. */
export function SessionFilters() {
  const filter = useStudio((s) => s.sessionFilter);
  const list = useStudio((s) => s.sessionList);
  const runtimes = useStudio((s) => s.runtimes);
  const capsuleNames = useStudio((s) => s.capsuleIds.map((id) => s.capsules[id].name).join('\n'));
  const [search, setSearch] = useState(filter.search);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const set = (patch: Partial<SessionFilter>) => void useStudio.getState().setSessionFilter(patch);
  // Capsules of the formation and of the listed sessions, so past capsules stay choosable.
  const capsules = useMemo(() => {
    const names = new Set(capsuleNames ? capsuleNames.split('\n') : []);
    for (const s of list) if (s.capsule) names.add(s.capsule);
    if (filter.capsule) names.add(filter.capsule);
    return [...names].sort();
  }, [capsuleNames, list, filter.capsule]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <form
      className="sessions-filters"
      role="search"
      aria-label="Filter sessions"
      onSubmit={(e) => (e.preventDefault(), clearTimeout(timer.current), set({ search }))}
    >
      <input
        className="input"
        type="search"
        aria-label="Search sessions"
        placeholder="Search tasks, answers, failures…"
        value={search}
        onChange={(e) => {
          const v = e.target.value;
          setSearch(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => set({ search: v }), 250);
        }}
      />
      {runtimes.length ? (
        <select
          className="select"
          aria-label="Host"
          value={filter.runtime}
          onChange={(e) => set({ runtime: e.target.value, capsule: '' })}
        >
          <option value="">This Studio</option>
          {runtimes.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label} ({r.state})
            </option>
          ))}
        </select>
      ) : null}
      <div className="sessions-filter-row">
        <select
          className="select"
          aria-label="Capsule"
          value={filter.capsule}
          onChange={(e) => set({ capsule: e.target.value })}
        >
          <option value="">All capsules</option>
          {capsules.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <select
          className="select"
          aria-label="State"
          value={filter.state}
          onChange={(e) => set({ state: e.target.value as SessionFilter['state'] })}
        >
          <option value="">Any state</option>
          <option value="running">Running</option>
          <option value="ended">Ended</option>
          <option value="interrupted">Interrupted</option>
        </select>
      </div>
      <div className="sessions-filter-row">
        <input
          className="input"
          type="datetime-local"
          aria-label="Started after"
          value={toInput(filter.since)}
          onChange={(e) => set({ since: fromInput(e.target.value) })}
        />
        <input
          className="input"
          type="datetime-local"
          aria-label="Started before"
          value={toInput(filter.until)}
          onChange={(e) => set({ until: fromInput(e.target.value) })}
        />
      </div>
    </form>
  );
}
