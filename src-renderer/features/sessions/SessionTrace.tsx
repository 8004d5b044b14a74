import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useStudio } from '../../store';
import { EventWindowNav } from './EventWindowNav';
import { describeTraceEvent, traceEventKind } from '../../../src-shared/trace';
import { SkippedLinesNote } from './SkippedLinesNote';
import { sessionRows } from './sessionRows';
import { SessionFamily } from './SessionFamily';
import { ForkButton, CompareWith } from './ForkButton';
import { SaveAsTest } from '../../ui/SaveAsTest';
import { formatTime } from '../../ui/time';

const ROW_H = 24;
const OVERSCAN = 10;
/** Rows from the end at which the next page is asked for. */
const PREFETCH = 60;

/**
 * The opened session: its summary, a task picker and its events in a windowed list
 * (@tanstack/react-virtual, rows of one fixed height), paged from the core.
 */
export function SessionTrace() {
  const o = useStudio((s) => s.openedSession)!;
  const box = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => sessionRows(o.events), [o.events]);
  const taskName = useMemo(
    () => new Map(o.tasks.map((t) => [t.id, `Task ${t.ord}${t.text ? `: ${t.text.slice(0, 80)}` : ''}`])),
    [o.tasks],
  );
  const list = useVirtualizer({
    count: rows.length,
    getScrollElement: () => box.current,
    estimateSize: () => ROW_H,
    overscan: OVERSCAN,
    // Before the first measure (and in a test's headless page), a screen's worth of rows.
    initialRect: { width: 0, height: 480 },
  });
  const shownRows = list.getVirtualItems();
  const first = shownRows[0]?.index ?? 0;
  const last = (shownRows[shownRows.length - 1]?.index ?? -1) + 1;
  const wantMore = o.next !== null && !o.loading && last >= rows.length - PREFETCH;
  useEffect(() => {
    if (wantMore) void useStudio.getState().loadMoreEvents();
  }, [wantMore]);
  // A window that starts past line 0 (after a jump) grows upwards as the user scrolls to its top.
  const wantEarlier = o.task === null && !o.loading && (o.events[0]?.seq ?? 0) > 0 && first < PREFETCH;
  useEffect(() => {
    if (wantEarlier) void useStudio.getState().loadEarlierEvents();
  }, [wantEarlier]);
  // Rows added above keep what the user was reading in place.
  const shown = useRef({ first: o.events[0]?.seq, rows: rows.length });
  useLayoutEffect(() => {
    const el = box.current;
    const before = shown.current;
    const firstSeq = o.events[0]?.seq;
    shown.current = { first: firstSeq, rows: rows.length };
    if (!el || before.first === undefined || firstSeq === undefined || firstSeq >= before.first) return;
    if (o.events.some((e) => e.seq === before.first)) el.scrollTop += (rows.length - before.rows) * ROW_H;
  }, [o.events, rows.length]);
  // After a jump, the list stands at the window's top (a line number) or its end.
  const jumped = o.jump?.n;
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || jumped === undefined) return;
    el.scrollTop = o.jump?.to === 'end' ? el.scrollHeight : 0;
  }, [jumped]);
  const s = o.session;

  return (
    <div className="session-trace">
      <div className="session-trace-head">
        <div>
          <h3 className="session-trace-title">{s.capsule ?? 'Session'}</h3>
          <span className="mono muted">{s.id}</span>
        </div>
        <span className="session-status" data-status={s.status}>
          {s.status}
        </span>
        <span className="muted" data-testid="session-event-count">
          {o.total !== null
            ? `${o.total.toLocaleString()} events`
            : `${o.events.length.toLocaleString()}${o.next !== null ? '+' : ''} events`}
        </span>
        <span className="toolbar-spacer" />
        <select
          className="select"
          aria-label="Task"
          value={o.task ?? ''}
          onChange={(e) => void useStudio.getState().showSessionTask(e.target.value || null)}
        >
          <option value="">All tasks ({o.tasks.length})</option>
          {o.tasks.map((t) => (
            <option key={t.id} value={t.id}>
              {taskName.get(t.id)} · {t.interrupted ? 'INTERRUPTED' : t.state.replace('TASK_STATE_', '')}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            void useStudio
              .getState()
              .loadTimeline(s.id)
              .then(() => useStudio.getState().showSessions('timeline'))
          }
        >
          Show on timeline
        </button>
        <button
          type="button"
          className="btn btn-small"
          title="Save an offline replay of this run (every capsule that took part) in the workspace's rehearsals folder"
          onClick={() => void useStudio.getState().makeRehearsal(s.id)}
        >
          Make rehearsal
        </button>
        <button
          type="button"
          className="btn btn-small"
          title={
            o.task
              ? 'Replay this task and what it delegated on the canvas, from the trace alone (nothing runs)'
              : 'Replay this run on the canvas, from the trace alone (nothing runs)'
          }
          onClick={() => void useStudio.getState().startReplay(s.id, o.task ?? undefined)}
        >
          {o.task ? 'Replay task' : 'Replay'}
        </button>
        <ForkButton o={o} />
        <CompareWith sessionId={s.id} />
        <SaveAsTest sessionId={s.id} capsule={s.capsule ?? undefined} />
      </div>
      <SessionFamily session={s} />
      <SkippedLinesNote skipped={s.skipped} />
      <EventWindowNav o={o} />
      <div
        ref={box}
        className="session-events"
        role="list"
        aria-label="Session events"
        aria-busy={o.loading}
        tabIndex={0}
      >
        <div style={{ height: list.getTotalSize(), position: 'relative' }}>
          {shownRows.map((v) => {
            const r = rows[v.index];
            const top = v.start;
            if (r.kind === 'task') {
              return (
                <div key={r.key} role="listitem" className="session-row session-row-task" style={{ top }}>
                  {r.taskId ? (taskName.get(r.taskId) ?? r.taskId) : 'Session'}
                </div>
              );
            }
            const e = o.events[r.index];
            return (
              <div
                key={r.key}
                role="listitem"
                className="session-row"
                data-kind={traceEventKind(e.event_type)}
                style={{ top }}
              >
                <span className="session-row-time mono">{e.ts ? formatTime(e.ts, { ms: true }) : null}</span>
                <span className="session-row-type mono">{e.event_type}</span>
                <span className="session-row-text">{describeTraceEvent(e)}</span>
              </div>
            );
          })}
        </div>
        {o.loading ? <p className="muted session-loading">Loading…</p> : null}
      </div>
    </div>
  );
}
