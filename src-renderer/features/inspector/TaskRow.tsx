import { useState, type ReactNode } from 'react';
import { isTerminal, type Task } from '../../../src-shared/a2a';
import { answerText, taskPhase, useStudio, type TaskRecord } from '../../store';
import { InputReply } from '../../ui/InputReply';
import { ShortId } from '../../ui/ShortId';
import { TaskStateBadge } from '../../ui/TaskStateBadge';
import { Residue } from './Residue';
import { PausedTask } from './PausedTask';
import { SaveAsTest } from '../../ui/SaveAsTest';
import { forkTask } from './fork';
import { formatTime } from '../../ui/time';

export function firstUserText(task: Task): string {
  const m = task.history?.find((h) => h.role === 'ROLE_USER');
  return (m?.parts ?? []).map((p) => p.text ?? '').join(' ');
}

/** A click on the row opens (or closes) its details, unless it was on one of the row's own controls. */
const onControl = (target: EventTarget) =>
  target instanceof Element && !!target.closest('button, input, textarea, select, a, form');

/**
 * One task of the capsule: state, id, what was asked. A running task offers Cancel; a finished one
 * what applies to it (fork it, save its run as a test). A click anywhere on it opens its details.
 */
export function TaskRow({ rec, open, children }: { rec: TaskRecord; open: boolean; children?: ReactNode }) {
  const { task, capsuleId } = rec;
  const cancel = useStudio((s) => s.cancelAnswers[task.id]);
  const phase = useStudio((s) => taskPhase(s, task.id, task.status.state));
  const sessionId = useStudio((s) => rec.sessionId ?? s.capsules[capsuleId]?.sessionId);
  const capsuleName = useStudio((s) => s.capsules[capsuleId]?.name);
  const [busy, setBusy] = useState(false);
  const asked = firstUserText(task);
  const answer = open ? '' : answerText(task);
  const finished = isTerminal(task.status.state);
  const toggle = () => useStudio.getState().inspectTask(capsuleId, open ? null : task.id);
  return (
    <li className="task-row" aria-label={`Task ${task.id}`} data-open={open || undefined}>
      <div
        className="task-row-summary"
        title={open ? 'Hide the details' : 'Show the details'}
        onClick={(e) => onControl(e.target) || toggle()}
      >
        <div className="task-row-head">
          <button
            type="button"
            className="task-toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Hide' : 'Show'} details of task ${task.id}`}
            onClick={toggle}
          >
            <span aria-hidden>{open ? '▾' : '▸'}</span>
          </button>
          <TaskStateBadge state={phase} />
          <ShortId id={task.id} what="Task" className="task-id" />
          {task.status.timestamp ? <span className="muted task-time">{formatTime(task.status.timestamp)}</span> : null}
          <span className="toolbar-spacer" />
          {finished ? null : (
            <button
              type="button"
              className="btn btn-small btn-danger"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                await useStudio.getState().cancelTask(capsuleId, task.id);
                setBusy(false);
              }}
              aria-label={`Cancel task ${task.id}`}
            >
              Cancel
            </button>
          )}
        </div>
        {asked && !open ? <div className="task-asked">{asked}</div> : null}
        {/* Lines of this task's session could not be written: what the records say of it may be partial. */}
        {typeof task.status.message?.metadata?.record === 'string' ? (
          <div className="task-record-warning" role="note">
            ⚠ {task.status.message.metadata.record}
          </div>
        ) : null}
        {answer ? <div className="task-answer">{answer}</div> : null}
        {finished && sessionId ? (
          <div className="task-row-actions">
            <button
              type="button"
              className="btn btn-small"
              aria-label={`Fork task ${task.id}`}
              title="Run this task again from a turn, with an edited message (opens the fork form)"
              onClick={() => void forkTask(sessionId, task.id)}
            >
              Fork…
            </button>
            <SaveAsTest sessionId={sessionId} capsule={capsuleName} />
          </div>
        ) : null}
      </div>
      {/* A task paused at a breakpoint is resumed from its row, open or not. */}
      <PausedTask capsuleId={capsuleId} taskId={task.id} />
      {/* A question waits in the row itself: answering needs no opening of the details. */}
      {!open ? <InputReply capsuleId={capsuleId} task={task} /> : null}
      {cancel ? (
        <div className="inspector-result" role="status">
          {cancel.error ? (
            <span className="error-text">Cancel failed: {cancel.error}</span>
          ) : cancel.refused ? (
            <span>
              {cancel.refused.state
                ? `Cannot cancel: the task already ended as ${cancel.refused.state.replace('TASK_STATE_', '')}.`
                : `Cannot cancel: ${cancel.refused.message}`}
            </span>
          ) : (
            <>
              <strong>{cancel.task ? cancel.task.status.state.replace('TASK_STATE_', '') : 'CANCELED'}</strong>
              <Residue items={cancel.residue} />
            </>
          )}
        </div>
      ) : null}
      {open ? children : null}
    </li>
  );
}
