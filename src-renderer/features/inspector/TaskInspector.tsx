import { useEffect, useMemo, useState } from 'react';
import { isTerminal, type Task } from '../../../src-shared/a2a';
import type { ResidueView, StopSessionAnswer } from '../../../src-shared/contract';
import { describeResidue, residueKey } from '../../../src-shared/residue';
import { answerText, useStudio, type TaskRecord } from '../../store';
import { InputReply, TaskStateBadge } from '../console';
import './inspector.css';

/** A capsule's tasks: state, messages, answer; cancel one task or all of them, or stop the session. */
export function TaskInspector({ capsuleId }: { capsuleId: string }) {
  const sessionId = useStudio((s) => s.capsules[capsuleId]?.sessionId);
  const state = useStudio((s) => s.capsules[capsuleId]?.state);
  const tasks = useStudio((s) => s.tasks);
  const stop = useStudio((s) => s.stopAnswers[capsuleId]);
  const [busy, setBusy] = useState<'stop' | 'cancelAll' | undefined>();
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
        <span className="inspector-actions">
          <button
            type="button"
            className="btn"
            disabled={!running || busy !== undefined}
            title="Cancel every task of this session; the capsule keeps running and takes new tasks"
            onClick={async () => {
              setBusy('cancelAll');
              await useStudio.getState().cancelAllTasks(capsuleId);
              setBusy(undefined);
            }}
          >
            Cancel all tasks
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={!running || busy !== undefined}
            title="Cancel every task, then end the session: its door closes and the capsule stops"
            onClick={async () => {
              setBusy('stop');
              await useStudio.getState().stopSession(capsuleId);
              setBusy(undefined);
            }}
          >
            Stop session
          </button>
        </span>
      </div>
      {stop && (!sessionId || sessionId === stop.session_id) ? <StopResult answer={stop} /> : null}
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
      <InputReply capsuleId={capsuleId} task={task} />
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

function StopResult({ answer }: { answer: StopSessionAnswer & { error?: string } }) {
  const what = answer.ended ? 'Stop session' : 'Cancel all tasks';
  const n = answer.canceled.length;
  return (
    <div className="inspector-result" role="status" aria-label={`${what} result`}>
      {answer.error ? (
        <span className="error-text">
          {what} failed: {answer.error}
        </span>
      ) : (
        <>
          <strong>
            {what}: {n} task{n === 1 ? '' : 's'} canceled.
          </strong>{' '}
          {n ? <span className="mono">{answer.canceled.join(', ')}</span> : 'Nothing was running.'}
          <Residue items={answer.residue} sessionEnded={answer.ended} />
          <div className="muted">{answer.ended ? 'The session has ended; Launch starts a new one.' : 'The capsule keeps answering new tasks.'}</div>
        </>
      )}
    </div>
  );
}

/**
 * What a cancel left behind: detached shell commands still running, delegations it ended. When the
 * session ended too, its end stopped the shell commands as well, and they are listed as ended.
 */
function Residue({ items, sessionEnded = false }: { items: ResidueView[]; sessionEnded?: boolean }) {
  if (items.length === 0) return <div className="muted">Nothing was left running.</div>;
  const running = sessionEnded ? [] : items.filter((r) => describeResidue(r).status === 'running');
  const ended = items.filter((r) => !running.includes(r));
  return (
    <div className="residue-groups">
      {running.length ? (
        <div>
          Left running:
          <ul className="residue" aria-label="Left running">
            {running.map((r) => (
              <ResidueRow key={residueKey(r)} item={r} />
            ))}
          </ul>
        </div>
      ) : sessionEnded ? null : (
        <div className="muted">Nothing was left running.</div>
      )}
      {ended.length ? (
        <div>
          Ended:
          <ul className="residue" aria-label="Ended">
            {ended.map((r) => (
              <ResidueRow key={residueKey(r)} item={r} sessionEnded={sessionEnded} />
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function ResidueRow({ item, sessionEnded = false }: { item: ResidueView; sessionEnded?: boolean }) {
  if (item.kind === 'detached_shell') {
    return (
      <li>
        shell <code>{item.command}</code> ({item.binary}){sessionEnded ? ', stopped with the session' : ''}
      </li>
    );
  }
  return (
    <li>
      delegation to {item.capsule}
      {item.version ? `@${item.version}` : ''}
      {item.child_session_id ? (
        <>
          , session <code>{item.child_session_id}</code>
        </>
      ) : null}
    </li>
  );
}
