import { useMemo, useState } from 'react';
import type { TimelineBar } from '../../../../src-shared/contract';
import { useStudio } from '../../../store';
import { formatSpan, layoutTimeline, type LaidBar } from './timelineLayout';
import './timeline.css';
import { formatDateTime, formatTime } from '../../../ui/time';

const ROW_H = 28;
const state = (b: TimelineBar) => b.state.replace('TASK_STATE_', '');

/** Tasks of the sessions around one session as bars on a shared time axis, indented and linked by cause. */
export function TimelineView() {
  const timeline = useStudio((s) => s.timeline);
  const sessions = useStudio((s) => s.sessionList);
  const layout = useMemo(() => layoutTimeline(timeline?.bars ?? []), [timeline]);
  const [focus, setFocus] = useState<LaidBar | null>(null);
  const around = timeline?.around ?? '';
  const span = layout.end - layout.start;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const height = layout.rows.length * ROW_H;
  // Replaying, a line marks the replay's cursor on the run's time axis.
  const replayAt = useStudio((s) =>
    s.replay ? (s.replay.cursor > 0 ? s.replay.run.steps[s.replay.cursor - 1].at : s.replay.run.startedAt) : null,
  );
  const cursorX = replayAt !== null && span > 0 ? Math.min(1, Math.max(0, (replayAt - layout.start) / span)) : null;

  return (
    <div className="timeline">
      <div className="timeline-head">
        <label className="timeline-around">
          <span>Around session</span>
          <select
            className="select"
            aria-label="Around session"
            value={around}
            onChange={(e) => void useStudio.getState().loadTimeline(e.target.value)}
          >
            {around && !sessions.some((s) => s.id === around) ? <option value={around}>{around}</option> : null}
            {!around ? <option value="">Choose a session</option> : null}
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.capsule ?? '?'} · {s.startedAt ? formatDateTime(s.startedAt) : s.id}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">
          {layout.rows.length} task{layout.rows.length === 1 ? '' : 's'} over {formatSpan(span)}
        </span>
        {around ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void useStudio.getState().loadTimeline(around)}
          >
            Refresh
          </button>
        ) : null}
      </div>
      {timeline?.truncated.map((t) => (
        <p key={t.sessionId} className="muted timeline-truncated" role="status">
          {t.capsule}: the first {t.shown.toLocaleString()} of {t.total.toLocaleString()} tasks are drawn.
        </p>
      ))}
      {layout.rows.length === 0 ? (
        <p className="muted timeline-empty">
          {around ? 'No tasks in these sessions yet.' : 'Open a session, then show it on the timeline.'}
        </p>
      ) : (
        <div className="timeline-grid">
          <div className="timeline-axis" aria-hidden="true">
            {ticks.map((t) => (
              <span key={t} style={{ left: `${t * 100}%` }}>
                +{formatSpan(span * t)}
              </span>
            ))}
          </div>
          <div className="timeline-rows" style={{ height }}>
            <ul className="timeline-list" aria-label="Tasks on the timeline">
              {layout.rows.map((r, i) => (
                <TimelineRow
                  key={r.bar.taskId}
                  r={r}
                  top={i * ROW_H}
                  parent={r.parentRow === null ? null : layout.rows[r.parentRow].bar}
                  onFocus={setFocus}
                />
              ))}
            </ul>
            <svg
              className="timeline-links"
              viewBox={`0 0 1000 ${height}`}
              preserveAspectRatio="none"
              aria-hidden="true"
            >
              {layout.rows.map((r, i) =>
                r.parentRow === null ? null : (
                  <path
                    key={r.bar.taskId}
                    d={`M ${r.x * 1000} ${r.parentRow * ROW_H + ROW_H / 2 + 8} V ${i * ROW_H + ROW_H / 2}`}
                    vectorEffect="non-scaling-stroke"
                  />
                ),
              )}
            </svg>
            {cursorX !== null ? (
              <div className="timeline-cursor-lane" aria-hidden="true">
                <div
                  className="timeline-cursor"
                  data-testid="timeline-replay-cursor"
                  style={{ left: `${cursorX * 100}%` }}
                  title="Replay cursor"
                />
              </div>
            ) : null}
          </div>
          <TimelineDetails r={focus} />
        </div>
      )}
    </div>
  );
}

function TimelineRow({
  r,
  top,
  parent,
  onFocus,
}: {
  r: LaidBar;
  top: number;
  parent: TimelineBar | null;
  onFocus(r: LaidBar | null): void;
}) {
  const b = r.bar;
  const label = `${b.capsule} task ${b.taskId}, ${state(b)}, ${formatSpan(b.end - b.start)}${parent ? `, caused by ${parent.capsule} task ${parent.taskId}` : ''}`;
  return (
    <li className="timeline-row" style={{ top, height: ROW_H }} data-depth={r.depth}>
      <span className="timeline-label" style={{ paddingLeft: 6 + r.depth * 14 }} title={b.text ?? undefined}>
        {r.depth > 0 ? '↳ ' : ''}
        <strong>{b.capsule}</strong>
        {b.text ? ` · ${b.text}` : ''}
      </span>
      <span className="timeline-track">
        <button
          type="button"
          className="timeline-bar"
          data-state={state(b)}
          data-open={b.open}
          aria-label={label}
          title={`${label}${b.text ? `\n${b.text}` : ''}`}
          style={{ left: `${r.x * 100}%`, width: `${r.w * 100}%` }}
          onMouseEnter={() => onFocus(r)}
          onFocus={() => onFocus(r)}
        />
      </span>
    </li>
  );
}

function TimelineDetails({ r }: { r: LaidBar | null }) {
  if (!r) return <p className="muted timeline-details">Hover or focus a bar for its details.</p>;
  const b = r.bar;
  return (
    <dl className="timeline-details" aria-label="Task details" aria-live="polite">
      <dt>Task</dt>
      <dd className="mono">{b.taskId}</dd>
      <dt>Capsule</dt>
      <dd>{b.capsule}</dd>
      <dt>State</dt>
      <dd>{state(b)}</dd>
      <dt>Time</dt>
      <dd>
        {formatTime(b.start)} · {formatSpan(b.end - b.start)}
        {b.open ? ' (still running)' : ''}
      </dd>
      {b.parentTaskId ? (
        <>
          <dt>Caused by</dt>
          <dd className="mono">{b.parentTaskId}</dd>
        </>
      ) : null}
      {b.text ? (
        <>
          <dt>Message</dt>
          <dd>{b.text}</dd>
        </>
      ) : null}
    </dl>
  );
}
