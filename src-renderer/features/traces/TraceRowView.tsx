import { memo } from 'react';
import type { TraceEvent } from '../../../src-shared/trace';
import { describeTraceEvent, traceEventKind } from '../../../src-shared/trace';

export const ROW = 22;

/** A task's header row. Memoized: while a burst grows its group, only this row's count changes. */
export const GroupRowView = memo(function GroupRowView({ position, groupKey, count, last }: { position: number; groupKey: string; count: number; last: string }) {
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
 * not rendered again.
 */
export const EventRowView = memo(function EventRowView({
  position,
  event,
  picked,
  onPick,
}: {
  position: number;
  event: TraceEvent;
  picked: boolean;
  onPick: (event: TraceEvent) => void;
}) {
  return (
    <div
      className="trace-row trace-event"
      data-kind={traceEventKind(event.event_type)}
      data-picked={picked || undefined}
      role="row"
      aria-rowindex={position + 1}
      tabIndex={0}
      aria-selected={picked}
      onClick={() => onPick(event)}
      onKeyDown={(k) => k.key === 'Enter' && onPick(event)}
    >
      <span className="trace-time mono">{event.ts.slice(11, 23)}</span>
      <span className="trace-type">{event.event_type}</span>
      <span className="trace-text">{describeTraceEvent(event)}</span>
    </div>
  );
});
