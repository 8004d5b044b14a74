import { memo, type KeyboardEvent } from 'react';
import type { TraceEvent } from '../../../src-shared/trace';
import { describeTraceEvent, traceEventKind } from '../../../src-shared/trace';
import { JsonBlock } from '../../ui/JsonBlock';
import { formatTime } from '../../ui/time';

export const ROW = 22;

/** A task's header row. Memoized: while a burst grows its group, only this row's count changes. */
export const GroupRowView = memo(function GroupRowView({
  position,
  groupKey,
  count,
  last,
}: {
  position: number;
  groupKey: string;
  count: number;
  last: string;
}) {
  return (
    <div className="trace-row trace-group" role="row" aria-rowindex={position + 1}>
      <GroupTitle groupKey={groupKey} count={count} last={last} />
    </div>
  );
});

export function GroupTitle({ groupKey, count, last }: { groupKey: string; count: number; last: string }) {
  return (
    <>
      <span className="mono">{groupKey}</span>
      <span className="muted">
        {count} event{count === 1 ? '' : 's'} · last {last.replace(/_/g, ' ')}
      </span>
    </>
  );
}

/**
 * One event row. Memoized on the event object: rows that stay in view while the list grows are
 * not rendered again. Clicking it (or Enter) opens it in place: the description wraps and the
 * line's JSON shows below with a Copy button; `measure` tells the list the open row's height.
 */
export const EventRowView = memo(function EventRowView({
  position,
  index,
  event,
  open,
  onToggle,
  measure,
}: {
  position: number;
  index: number;
  event: TraceEvent;
  open: boolean;
  onToggle: (index: number) => void;
  measure: (el: HTMLElement | null) => void;
}) {
  const kind = traceEventKind(event.event_type);
  const keys = (k: KeyboardEvent) => {
    if (k.target !== k.currentTarget || (k.key !== 'Enter' && k.key !== ' ')) return;
    k.preventDefault();
    onToggle(index);
  };
  if (!open) {
    return (
      <div
        className="trace-row trace-event"
        data-kind={kind}
        role="row"
        aria-rowindex={position + 1}
        aria-expanded={false}
        tabIndex={0}
        onClick={() => onToggle(index)}
        onKeyDown={keys}
      >
        <span className="trace-time mono">{formatTime(event.ts, { ms: true })}</span>
        <span className="trace-type">{event.event_type}</span>
        <span className="trace-text">{describeTraceEvent(event)}</span>
      </div>
    );
  }
  return (
    <div
      ref={measure}
      className="trace-open"
      data-kind={kind}
      role="row"
      aria-rowindex={position + 1}
      aria-expanded
      tabIndex={0}
      onKeyDown={keys}
      aria-label={`${event.event_type} event`}
    >
      <div className="trace-open-head trace-event" data-kind={kind} onClick={() => onToggle(index)}>
        <span className="trace-time mono">{formatTime(event.ts, { ms: true })}</span>
        <span className="trace-type">{event.event_type}</span>
        <span className="trace-text">{describeTraceEvent(event)}</span>
      </div>
      <div className="trace-open-body" role="cell">
        <JsonBlock value={event} label="event JSON" />
      </div>
    </div>
  );
});
