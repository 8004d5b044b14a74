import { useState } from 'react';
import type { OpenSession } from '../../store/sessionsSlice';
import { useStudio } from '../../store';

/**
 * Where the loaded window stands in a long session, and ways to move it: a 1M-event session is
 * read a page at a time, so the start, the end or any line number is one request away.
 */
export function EventWindowNav({ o }: { o: OpenSession }) {
  const [line, setLine] = useState('');
  const total = o.total ?? o.session.events;
  const first = o.events[0]?.seq;
  const last = o.events[o.events.length - 1]?.seq;
  if (o.task !== null || first === undefined || last === undefined) return null;
  const whole = first === 0 && o.next === null;
  if (whole) return null;
  const jump = (to: number | 'end') => void useStudio.getState().jumpToEvent(to);
  return (
    <div className="session-window" role="group" aria-label="Move through the session">
      <span className="muted" data-testid="session-window">
        lines {(first + 1).toLocaleString()}–{(last + 1).toLocaleString()} of {total.toLocaleString()}
      </span>
      <button type="button" className="btn btn-small" disabled={first === 0 || o.loading} onClick={() => jump(0)}>
        Start
      </button>
      <button
        type="button"
        className="btn btn-small"
        disabled={o.next === null || o.loading}
        onClick={() => jump('end')}
      >
        End
      </button>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const n = Number(line);
          if (Number.isInteger(n) && n >= 1) jump(n - 1);
        }}
      >
        <input
          className="input"
          type="number"
          min={1}
          max={total}
          placeholder="Go to line"
          aria-label="Go to line"
          value={line}
          onChange={(e) => setLine(e.target.value)}
        />
      </form>
    </div>
  );
}
