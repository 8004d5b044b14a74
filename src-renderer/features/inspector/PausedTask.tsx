import { useState } from 'react';
import type { PausedTask as PausedTaskView } from '../../../src-shared/contract';
import { useStudio, type ResumeAction } from '../../store';
import { PauseIcon } from '../../ui/PauseIcon';
import { formatTime } from '../../ui/time';

// A task paused at a breakpoint: where it waits, the message it is about to send in a box the
// user may edit, and Continue / Step / Cancel. Shown in the task's row of the Tasks tab.

/** The longest message the box takes (the core refuses longer edits). */
const MAX_EDIT = 512 * 1024;

export function PausedTask({ capsuleId, taskId }: { capsuleId: string; taskId: string }) {
  const paused = useStudio((s) => s.breakpoints.paused.find((p) => p.capsuleId === capsuleId && p.taskId === taskId));
  if (!paused) return null;
  // A new pause of the same task starts from its own message.
  return <PausedForm key={paused.since} p={paused} />;
}

function PausedForm({ p }: { p: PausedTaskView }) {
  const taskId = p.taskId;
  const targetName = useStudio((s) =>
    p.target ? (s.capsules[p.target]?.name ?? s.remotes[p.target]?.card?.name ?? p.target) : p.to,
  );
  const [text, setText] = useState(p.text);
  const [busy, setBusy] = useState<ResumeAction>();
  const where =
    p.point === 'turn' ? `before turn ${p.turn ?? 1}` : `before the delegation to ${targetName ?? 'a peer'}`;
  // Times read as the task's own do (its status timestamp, hh:mm:ss).
  const until = formatTime(Date.parse(p.since) + p.timeoutMs);
  const edited = p.editable && text !== p.text;
  const resume = async (action: ResumeAction) => {
    setBusy(action);
    await useStudio.getState().resumePaused(p, action, action !== 'cancel' && edited ? text : undefined);
    setBusy(undefined);
  };
  return (
    <div className="paused-task" role="group" aria-label={`Task ${taskId} paused at a breakpoint`}>
      <div className="paused-task-head">
        <span className="paused-task-badge">
          <PauseIcon /> Paused
        </span>{' '}
        {where}
        <span className="muted"> · goes on by itself at {until}</span>
      </div>
      <label className="paused-task-label" htmlFor={`paused-${taskId}`}>
        {p.point === 'turn' ? 'Message the model reads next' : 'Message the worker gets'}
        {edited ? <span className="paused-task-edited"> (edited)</span> : null}
      </label>
      <textarea
        id={`paused-${taskId}`}
        className="input paused-task-text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        readOnly={!p.editable}
        maxLength={MAX_EDIT}
        rows={Math.min(8, Math.max(2, text.split('\n').length + Math.floor(text.length / 60)))}
      />
      {!p.editable ? <p className="muted">This message is longer than the 16 KiB shown: it goes on as it is.</p> : null}
      <div className="paused-task-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={!!busy || (edited && !text.trim())}
          onClick={() => void resume('continue')}
        >
          Continue
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={!!busy || (edited && !text.trim())}
          onClick={() => void resume('step')}
          title="Run one turn, then pause again before the next"
        >
          Step
        </button>
        <button
          type="button"
          className="btn btn-small btn-danger"
          disabled={!!busy}
          onClick={() => void resume('cancel')}
          aria-label={`Cancel paused task ${taskId}`}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
