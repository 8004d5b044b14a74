import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useStudio } from '../../store';
import { createTraceGrouper, describeEvent, eventTone, type TraceRow } from './traceRows';
import './traces.css';

const ROW = 22;
const OVERSCAN = 12;

/** The live trace of the capsule's running session, grouped by task and virtualized. */
export function LiveTracePanel({ capsuleId }: { capsuleId: string }) {
  const sessionId = useStudio((s) => s.capsules[capsuleId]?.sessionId ?? null);
  useEffect(() => void useStudio.getState().openTrace(sessionId), [sessionId]);
  if (!sessionId) return <p className="empty-state">Launch this capsule to follow its trace live.</p>;
  return <TraceList sessionId={sessionId} />;
}

function TraceList({ sessionId }: { sessionId: string }) {
  // `version` changes on each appended batch (once per frame at most): the list re-renders, the canvas does not.
  const version = useStudio((s) => s.traces[sessionId]?.version ?? 0);
  const trace = useStudio.getState().traces[sessionId];
  const events = trace?.events;
  const grouper = useMemo(() => createTraceGrouper(), []);
  // `version` is the signal that the events array grew in place.
  const rows: TraceRow[] = useMemo(() => (events ? grouper.rows(events) : []), [events, grouper, version]);
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const follow = useRef(true);
  const [picked, setPicked] = useState<number | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    setHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [rows.length]);

  // Following the end, the window is the last rows already in this render: the scroll event that
  // reports the new position arrives a frame later, and a burst would show an empty list meanwhile.
  const top = follow.current ? Math.max(0, rows.length * ROW - height) : scrollTop;
  const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((top + height) / ROW) + OVERSCAN);
  const visible = [];
  for (let i = first; i < last; i++) {
    const r = rows[i];
    const style = { top: i * ROW, height: ROW };
    if (r.kind === 'group') {
      visible.push(
        <div key={`g-${r.key}`} className="trace-row trace-group" style={style} role="row">
          <span className="mono">{r.key === 'session' ? 'session' : r.key}</span>
          <span className="muted">
            {r.count} event{r.count === 1 ? '' : 's'} · last {r.last.replace(/_/g, ' ')}
          </span>
        </div>,
      );
    } else {
      const e = events![r.index];
      visible.push(
        <div
          key={`e-${r.index}`}
          className="trace-row trace-event"
          data-tone={eventTone(e.event_type)}
          data-picked={picked === r.index || undefined}
          style={style}
          role="row"
          tabIndex={0}
          aria-selected={picked === r.index}
          onClick={() => setPicked(r.index)}
          onKeyDown={(k) => k.key === 'Enter' && setPicked(r.index)}
        >
          <span className="trace-time mono">{e.ts.slice(11, 23)}</span>
          <span className="trace-type">{e.event_type}</span>
          <span className="trace-text">{describeEvent(e)}</span>
        </div>,
      );
    }
  }

  return (
    <div className="trace-panel">
      <div className="trace-bar muted">
        <span>
          Session <span className="mono">{sessionId}</span>
        </span>
        <span data-testid="trace-count">{events?.length ?? 0} events</span>
      </div>
      <div
        ref={box}
        className="trace-scroll"
        role="table"
        aria-label="Live trace"
        aria-rowcount={rows.length}
        onScroll={(e) => {
          const el = e.currentTarget;
          setScrollTop(el.scrollTop);
          follow.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW * 2;
        }}
      >
        <div className="trace-spacer" style={{ height: rows.length * ROW }}>
          {visible}
        </div>
      </div>
      {picked !== null && events?.[picked] ? (
        <div className="trace-detail" aria-label="Trace event detail">
          <div className="trace-detail-head">
            <strong>{describeEvent(events[picked])}</strong>
            <button type="button" className="btn btn-small" onClick={() => setPicked(null)} aria-label="Close event detail">
              ✕
            </button>
          </div>
          <pre className="mono">{JSON.stringify(events[picked], null, 2)}</pre>
        </div>
      ) : null}
    </div>
  );
}
