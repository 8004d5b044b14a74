import { REPLAY_SPEEDS, useStudio, type ReplaySpeed } from '../../store';
import { offsetLabel, speedLabel } from './replayText';
import './replay.css';
import { formatDateTime, formatTime } from '../../ui/time';

// The bar that marks replay mode: what is replayed, the controls (play/pause, step, next hop,
// speed, a scrubber over the run's steps) and the way back to live. Shown only while replaying.

export function ReplayBar() {
  const replay = useStudio((s) => s.replay);
  if (!replay) return null;
  const { run, cursor, playing, speed, missing } = replay;
  const control = useStudio.getState().replayControl;
  const n = run.steps.length;
  const at = cursor > 0 ? run.steps[cursor - 1].at - run.startedAt : 0;
  const span = run.endedAt - run.startedAt;
  const ended = cursor >= n;
  return (
    <section className="replay-bar" role="region" aria-label="Replay">
      <span className="replay-badge">Replay</span>
      <span
        className="replay-what"
        title={`Run of session ${run.sessionId}, recorded ${formatDateTime(run.startedAt)}: ${run.capsules.map((c) => c.capsule).join(', ')}`}
      >
        {run.entry} · {formatTime(run.startedAt)} · {run.capsules.length} capsule
        {run.capsules.length === 1 ? '' : 's'}
        {run.truncated ? ' · first part only' : ''}
        {missing.length ? ` · not on canvas: ${missing.join(', ')}` : ''}
      </span>
      <span className="replay-controls">
        <button
          type="button"
          className="btn btn-small btn-primary"
          onClick={() => control({ do: playing ? 'pause' : 'play' })}
          disabled={n === 0}
          title="Play at the chosen speed of recorded time (a recorded pause over 5 s plays as 5 s)"
        >
          {playing ? 'Pause' : ended && n > 0 ? 'Replay again' : 'Play'}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => control({ do: 'step' })}
          disabled={ended}
          title="Play the next recorded event"
        >
          Step
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => control({ do: 'stepHop' })}
          disabled={ended}
          title="Play on to the next delegation that goes out or comes back"
        >
          Next hop
        </button>
        <label className="replay-speed">
          <span className="muted">Speed</span>
          <select
            className="select"
            aria-label="Replay speed"
            value={String(speed)}
            onChange={(e) =>
              control({
                do: 'speed',
                speed: (e.target.value === 'instant' ? 'instant' : Number(e.target.value)) as ReplaySpeed,
              })
            }
          >
            {REPLAY_SPEEDS.map((s) => (
              <option key={String(s)} value={String(s)}>
                {speedLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </span>
      <input
        className="replay-scrub"
        type="range"
        min={0}
        max={n}
        step={1}
        value={cursor}
        aria-label="Replay position"
        aria-valuetext={`step ${cursor} of ${n}`}
        onChange={(e) => control({ do: 'jump', cursor: Number(e.target.value) })}
      />
      <span className="replay-pos mono" data-testid="replay-position">
        {cursor}/{n} · {offsetLabel(at)} of {offsetLabel(span)}
      </span>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => control({ do: 'jump', cursor: n })}
        disabled={ended}
      >
        Jump to end
      </button>
      <button type="button" className="btn btn-small" onClick={() => useStudio.getState().exitReplay()}>
        Exit replay
      </button>
    </section>
  );
}
