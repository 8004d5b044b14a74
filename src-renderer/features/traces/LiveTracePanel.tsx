import {
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { TraceEvent } from '../../../src-shared/trace';
import { useStudio } from '../../store';
import { EventRowView, GroupRowView, GroupTitle, ROW } from './TraceRowView';
import { createTraceGrouper } from './traceRows';
import { rowLayout } from './rowLayout';
import { createTraceFilter, isFiltering, NO_FILTER, type TraceFilter } from './traceFilter';
import { TraceFilterBar } from './TraceFilterBar';
import './traces.css';

const OVERSCAN = 12;
/** Following the end there is nothing below, and a user scrolling up stops following first. */
const OVERSCAN_FOLLOWING = 2;
const NO_EVENTS: TraceEvent[] = [];

/** The live trace of the capsule's running session, grouped by task and virtualized. */
export function LiveTracePanel({ capsuleId }: { capsuleId: string }) {
  const sessionId = useStudio((s) => s.capsules[capsuleId]?.sessionId ?? null);
  // The view follows its session while it is open; closed, the session's lines are let go.
  useEffect(() => {
    void useStudio.getState().openTrace(sessionId);
    return () => {
      if (sessionId) useStudio.getState().closeTrace(sessionId);
    };
  }, [sessionId]);
  const replayed = useStudio((s) =>
    s.replay ? (Object.entries(s.replay.ids).find(([, id]) => id === capsuleId)?.[0] ?? null) : undefined,
  );
  // Replaying, the trace shows the recording up to the replay's cursor (live lines keep arriving aside).
  if (replayed !== undefined)
    return replayed ? (
      <ReplayTraceList capsule={replayed} />
    ) : (
      <p className="empty-state">This capsule took no part in the replayed run.</p>
    );
  if (!sessionId) return <p className="empty-state">Launch this capsule to follow its trace live.</p>;
  return <LiveTraceList sessionId={sessionId} />;
}

function LiveTraceList({ sessionId }: { sessionId: string }) {
  // `version` changes on each appended batch (once per frame at most): the list re-renders, the canvas does not.
  const version = useStudio((s) => s.traces[sessionId]?.version ?? 0);
  const dropped = useStudio((s) => s.traces[sessionId]?.dropped ?? 0);
  const events = useStudio.getState().traces[sessionId]?.events ?? NO_EVENTS;
  const count = `${events.length.toLocaleString()} events${dropped > 0 ? ` (the ${dropped.toLocaleString()} before them: Sessions)` : ''}`;
  return (
    <TraceList
      title={
        <>
          Session <span className="mono">{sessionId}</span>
        </>
      }
      count={count}
      events={events}
      version={version}
    />
  );
}

/** The recorded lines of one capsule of the replayed run, up to the line of the replay's cursor. */
function ReplayTraceList({ capsule }: { capsule: string }) {
  const run = useStudio((s) => s.replay?.run);
  const upTo = useStudio((s) => (s.replay && s.replay.cursor > 0 ? s.replay.run.steps[s.replay.cursor - 1].line : -1));
  const events = useMemo(() => {
    const out: TraceEvent[] = [];
    for (let i = 0; i <= upTo && run && i < run.lines.length; i++)
      if (run.lines[i].capsule === capsule) out.push(run.lines[i].event);
    return out;
  }, [run, upTo, capsule]);
  const count = `${events.length.toLocaleString()} events to the cursor`;
  return (
    <TraceList title={<>Replay · {capsule}</>} count={count} events={events} version={upTo} label="Replayed trace" />
  );
}

function TraceList({
  title,
  count,
  events: all,
  version,
  label = 'Live trace',
}: {
  title: ReactNode;
  count: string;
  events: TraceEvent[];
  version: number;
  label?: string;
}) {
  const [filterNow, setFilter] = useState<TraceFilter>(NO_FILTER);
  // Typing in the filter never waits on a pass over a long trace.
  const filter = useDeferredValue(filterNow);
  const filterer = useMemo(() => createTraceFilter(), []);
  const filtered = useMemo(() => filterer(all, filter), [all, filter, filterer, version]);
  const events = filtered.events;
  const grouper = useMemo(() => createTraceGrouper(), []);
  // `version` is the signal that the events array grew in place; the grouper only visits new lines.
  const view = useMemo(() => grouper.update(events), [events, grouper, version]);
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const follow = useRef(true);
  /** The scrollTop this view last set itself: its scroll event is not the user's. */
  const written = useRef(-1);
  // The one open row: an index into `events` (the array it indexes: a new array closes it).
  const [open, setOpen] = useState<{ events: TraceEvent[]; index: number } | null>(null);
  const [openHeight, setOpenHeight] = useState(ROW);
  const openIndex = open && open.events === events && open.index < events.length ? open.index : -1;
  const openAt = openIndex >= 0 ? view.positionOf(openIndex) : -1;
  const layout = rowLayout(view.count, ROW, openAt, openHeight);
  const total = layout.total;
  const stopFollowing = (el: HTMLElement) => {
    if (!follow.current) return;
    follow.current = false;
    written.current = -1;
    setScrollTop(el.scrollTop);
  };

  // The open row's height, measured as it lays out (its JSON wraps with the panel's width).
  const rowObserver = useRef<ResizeObserver | null>(null);
  const measure = useCallback((el: HTMLElement | null) => {
    rowObserver.current?.disconnect();
    rowObserver.current = null;
    if (!el) return;
    const ro = new ResizeObserver(() => setOpenHeight(el.offsetHeight));
    ro.observe(el);
    rowObserver.current = ro;
    setOpenHeight(el.offsetHeight);
  }, []);
  useEffect(() => () => rowObserver.current?.disconnect(), []);
  const stopFollowingRef = useRef(stopFollowing);
  stopFollowingRef.current = stopFollowing;
  const toggle = useCallback(
    (index: number) => {
      // Reading a line stops following the end, or the next batch would scroll it away.
      if (box.current) stopFollowingRef.current(box.current);
      setOpen((cur) => (cur && cur.index === index && cur.events === events ? null : { events, index }));
    },
    [events],
  );

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    setHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);
  useLayoutEffect(() => {
    // Following, the end is known without asking the layout (no scrollHeight read after the
    // rows were written, which would force a second layout in the frame).
    const el = box.current;
    const target = Math.max(0, total - height);
    if (el && follow.current && target !== written.current) {
      written.current = target;
      el.scrollTop = target;
    }
  }, [total, height]);

  // Following the end, the window is the last rows already in this render: the scroll event that
  // reports the new position arrives a frame later, and a burst would show an empty list meanwhile.
  const following = follow.current;
  const top = following ? Math.max(0, total - height) : scrollTop;
  const over = following ? OVERSCAN_FOLLOWING : OVERSCAN;
  // The rows in view sit in one block moved as a whole (one style change per frame, not one per
  // row). A row's element is its place in that block: a batch changes the rows' text, it neither
  // removes nor creates elements, and rows that did not change are not rendered again.
  const span = Math.ceil(height / ROW) + 1 + 2 * over;
  const first = Math.max(0, Math.min(layout.rowAt(top) - over, view.count - span));
  const last = Math.min(view.count, first + span);
  const rowViews: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const r = view.rowAt(i);
    const key = `w${i - first}`;
    rowViews.push(
      r.kind === 'group' ? (
        <GroupRowView key={key} position={i} groupKey={r.key} count={r.count} last={r.last} />
      ) : (
        <EventRowView
          key={key}
          position={i}
          index={r.index}
          event={events[r.index]}
          open={r.index === openIndex}
          onToggle={toggle}
          measure={measure}
        />
      ),
    );
  }
  // The task the rows at the top belong to stays named above them once its header scrolled away.
  const topRow = Math.min(view.count - 1, layout.rowAt(top));
  const stickyAt = view.count > 0 ? view.headerOf(topRow) : -1;
  const sticky = stickyAt >= 0 && stickyAt < topRow ? view.rowAt(stickyAt) : null;

  return (
    <div className="trace-panel">
      <div className="trace-bar muted">
        <span>{title}</span>
        <span data-testid="trace-count">{count}</span>
      </div>
      <TraceFilterBar
        filter={filterNow}
        onFilter={setFilter}
        types={filtered.types}
        tasks={filtered.tasks}
        shown={isFiltering(filter) ? events.length : null}
      />
      <div
        ref={box}
        className="trace-scroll"
        role="table"
        aria-label={label}
        aria-rowcount={view.count}
        // A user reaching up stops following at once: during a burst the next batch would
        // otherwise scroll the list back down before their scroll event arrives.
        onWheel={(e) => e.deltaY < 0 && stopFollowing(e.currentTarget)}
        onKeyDown={(e) => ['ArrowUp', 'PageUp', 'Home'].includes(e.key) && stopFollowing(e.currentTarget)}
        onPointerDown={(e) => e.target === e.currentTarget && stopFollowing(e.currentTarget)}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (Math.abs(el.scrollTop - written.current) <= 1) return;
          written.current = -1;
          follow.current = el.scrollTop + height >= total - ROW * 2;
          setScrollTop(el.scrollTop);
        }}
      >
        <div className="trace-spacer" style={{ height: total }}>
          {sticky?.kind === 'group' ? (
            <div className="trace-row trace-group trace-sticky" aria-hidden>
              <GroupTitle groupKey={sticky.key} count={sticky.count} last={sticky.last} />
            </div>
          ) : null}
          <div className="trace-window" style={{ transform: `translateY(${layout.offsetOf(first)}px)` }}>
            {rowViews}
          </div>
        </div>
      </div>
    </div>
  );
}
