import { useEffect, useMemo, useState } from 'react';
import { isTerminal, type Task } from '../../../src-shared/a2a';
import type { ResidueView } from '../../../src-shared/contract';
import { answerText, useStudio, type TaskRecord } from '../../store';
import { TaskStateBadge } from '../console';
import './inspector.css';

/** A capsule's tasks: state, messages, answer; Cancel one task or stop the whole session. */
export function TaskInspector({ capsuleId }: { capsuleId: string }) {
  const sessionId = useStudio((s) => s.capsules[capsuleId]?.sessionId);
  const state = useStudio((s) => s.capsules[capsuleId]?.state);
  const tasks = useStudio((s) => s.tasks);
  const stop = useStudio((s) => s.stopAnswers[capsuleId]);
  const [stopping, setStopping] = useState(false);
  useEffect(() => {
    if (sessionId) void useStudio.getState().loadTasks(capsuleId);
  }, [capsuleId, sessionId]);
  const mine = useMemo(
    () =>
      Object.values(tasks)
        .filter((t) => t.capsuleId === capsuleId)
        .reverse(),
    [tasks, capsuleId],
  );
  const running = state !== undefined && state !== 'stopped' && state !== 'failed';

  return (
    <div className="inspector">
      <div className="inspector-bar">
        <span className="muted">
          {sessionId ? (
            <>
              Session <span className="mono">{sessionId}</span>
            </>
          ) : (
            'Not running'
          )}
        </span>
        <button
          type="button"
          className="btn btn-danger"
          disabled={!running || stopping}
          onClick={async () => {
            setStopping(true);
            await useStudio.getState().stopSession(capsuleId);
            setStopping(false);
          }}
        >
          Stop session
        </button>
      </div>
      {stop ? (
        <div className="inspector-result" role="status" aria-label="Stop session result">
          {stop.error ? (
            <span className="error-text">Stop session failed: {stop.error}</span>
          ) : (
            <>
              <strong>Stop session: {stop.canceled.length} task{stop.canceled.length === 1 ? '' : 's'} canceled.</strong>{' '}
              {stop.canceled.length ? <span className="mono">{stop.canceled.join(', ')}</span> : 'Nothing was running.'}
              <Residue items={stop.residue} />
              <div className="muted">The capsule keeps answering new tasks; Stop on its node ends it.</div>
            </>
          )}
        </div>
      ) : null}
      {mine.length === 0 ? <p className="empty-state">No tasks yet. Send one from the console.</p> : null}
      <ul className="task-list" aria-label="Tasks">
        {mine.map((rec) => (
          <TaskRow key={rec.task.id} rec={rec} />
        ))}
      </ul>
    </div>
  );
}

function firstUserText(task: Task): string {
  const m = task.history?.find((h) => h.role === 'ROLE_USER');
  return (m?.parts ?? []).map((p) => p.text ?? '').join(' ');
}

function TaskRow({ rec }: { rec: TaskRecord }) {
  const { task, capsuleId } = rec;
  const cancel = useStudio((s) => s.cancelAnswers[task.id]);
  const [busy, setBusy] = useState(false);
  const asked = firstUserText(task);
  const answer = answerText(task);
  return (
    <li className="task-row" aria-label={`Task ${task.id}`}>
      <div className="task-row-head">
        <TaskStateBadge state={task.status.state} />
        <span className="mono task-id" title={task.id}>
          {task.id}
        </span>
        {task.status.timestamp ? <span className="muted task-time">{task.status.timestamp.slice(11, 19)}</span> : null}
        <span className="toolbar-spacer" />
        <button
          type="button"
          className={`btn btn-small${isTerminal(task.status.state) ? '' : ' btn-danger'}`}
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
      </div>
      {asked ? <div className="task-asked">{asked}</div> : null}
      {answer ? <div className="task-answer">{answer}</div> : null}
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
    </li>
  );
}

function Residue({ items }: { items: ResidueView[] }) {
  if (items.length === 0) return <div className="muted">Nothing was left running.</div>;
  return (
    <div>
      Left running:
      <ul className="residue">
        {items.map((r) =>
          r.kind === 'detached_shell' ? (
            <li key={r.work_id}>
              shell <code>{r.command}</code> ({r.binary})
            </li>
          ) : (
            <li key={r.delegation_id}>
              delegation to {r.capsule}@{r.version}, session <code>{r.child_session_id}</code>
            </li>
          ),
        )}
      </ul>
    </div>
  );
}
