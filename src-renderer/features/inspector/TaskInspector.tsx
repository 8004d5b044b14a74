import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { isTerminal, type Task } from '../../../src-shared/a2a';
import { residueOfTask } from '../../../src-shared/residue';
import { taskPhase, useStudio, type TaskRecord } from '../../store';
import { InputReply } from '../../ui/InputReply';
import { Artifacts } from './Artifacts';
import { DelegationLinks } from './DelegationLinks';
import { Messages } from './Messages';
import { PartView } from './PartView';
import { Residue, StopResult } from './Residue';
import { TaskRow } from './TaskRow';
import { taskDelegations, taskFigures, taskHistory } from './taskTrace';
import { formatMs } from './figures';
import { Turns } from './Turns';
import { forkFrom } from './fork';
import { useTaskTrace } from './useTaskTrace';
import './inspector.css';
import { formatTime } from '../../ui/time';
import { STOP_SESSION } from '../../ui/actionWords';

/** A capsule's tasks: state, messages, answer; cancel one task or all of them, or stop the session. */
export function TaskInspector({ capsuleId }: { capsuleId: string }) {
  const sessionId = useStudio((s) => s.capsules[capsuleId]?.sessionId);
  const state = useStudio((s) => s.capsules[capsuleId]?.state);
  const tasks = useStudio((s) => s.tasks);
  const stop = useStudio((s) => s.stopAnswers[capsuleId]);
  const openId = useStudio((s) => s.inspectedTasks[capsuleId]);
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
  // Stopped with none held (a reload after Stop): its last session's record lists them.
  const readStopped = state !== undefined && !running && mine.length === 0;
  useEffect(() => {
    if (readStopped) void useStudio.getState().loadStoppedTasks(capsuleId);
  }, [capsuleId, readStopped]);

  return (
    <div className="inspector">
      <div className="inspector-bar">
        <span className="muted">
          {sessionId ? (
            <>
              Session <span className="mono">{sessionId}</span>
            </>
          ) : mine[0]?.sessionId ? (
            <>
              Stopped session <span className="mono">{mine[0].sessionId}</span>
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
              await useStudio.getState().requestStop(capsuleId);
              setBusy(undefined);
            }}
          >
            {STOP_SESSION}
          </button>
        </span>
      </div>
      {stop && (!sessionId || sessionId === stop.session_id) ? <StopResult answer={stop} /> : null}
      {mine.length === 0 ? <p className="empty-state">No tasks yet. Send one from the console.</p> : null}
      <ul className="task-list" aria-label="Tasks">
        {mine.map((rec) => (
          <TaskRow key={rec.task.id} rec={rec} open={rec.task.id === openId}>
            <TaskDetail rec={rec} />
          </TaskRow>
        ))}
      </ul>
    </div>
  );
}

/**
 * Everything about one task: its status message, what it was asked and answered, what it made,
 * its turns (timing, tokens, cost), the delegations it made and what it left running.
 */
function TaskDetail({ rec }: { rec: TaskRecord }) {
  const { task, capsuleId } = rec;
  const agent = useStudio((s) => s.capsules[capsuleId]?.name ?? capsuleId);
  const currentSession = useStudio((s) => s.capsules[capsuleId]?.sessionId);
  const cancel = useStudio((s) => s.cancelAnswers[task.id]);
  const sessionId = rec.sessionId ?? currentSession;
  const ended = isTerminal(task.status.state);
  const version = `${task.status.state}:${task.status.timestamp ?? ''}`;
  // The list carries older tasks' status only: the door's GetTask has the messages and artifacts.
  useEffect(() => {
    if (currentSession && sessionId === currentSession) void useStudio.getState().refreshTask(capsuleId, task.id);
  }, [capsuleId, task.id, version, currentSession, sessionId]);
  const { trace, error } = useTaskTrace(sessionId, task.id, version, ended);
  const figures = useMemo(() => (trace ? taskFigures(trace.events, trace.price) : undefined), [trace]);
  const delegations = useMemo(() => (trace ? taskDelegations(trace.events) : []), [trace]);
  const history = useMemo(() => (trace ? taskHistory(trace.events) : []), [trace]);
  const residue = cancel?.residue.length ? cancel.residue : residueOfTask(task);
  const artifacts = (task.artifacts ?? []).filter((a) => a.artifactId !== 'residue' && a.name !== 'residue');

  return (
    <div className="task-detail" role="group" aria-label={`Details of task ${task.id}`}>
      <Section title="Status">
        <StatusMessage task={task} agent={agent} />
      </Section>
      {/* A task waiting for input shows its reply box here, under the question. */}
      <InputReply capsuleId={capsuleId} task={task} />
      <Section title="Messages">
        <Messages history={task.history ?? []} turns={figures?.turns ?? []} agent={agent} />
      </Section>
      <Section title="Artifacts">
        <Artifacts artifacts={artifacts} />
      </Section>
      <Section title="Turns">
        {!sessionId ? (
          <p className="muted">The session this task ran in is not known here; the Sessions browser has its trace.</p>
        ) : error ? (
          <p className="error-text">Could not read the task&apos;s trace: {error}</p>
        ) : !trace || !figures ? (
          <p className="muted">Reading the trace…</p>
        ) : (
          <Turns
            taskId={task.id}
            figures={figures}
            delegations={delegations}
            ended={ended}
            model={trace.model}
            priced={trace.price !== null}
            onFork={
              ended ? (turn) => forkFrom(sessionId, task.id, turn, figures.turns.length, trace.events) : undefined
            }
          />
        )}
        {trace?.truncated ? (
          <p className="muted">
            This task has more trace lines than the inspector reads; the first ones are shown. The Sessions browser has
            them all.
          </p>
        ) : null}
      </Section>
      <Section title="Delegations">
        {trace ? (
          <DelegationLinks taskId={task.id} list={delegations} />
        ) : sessionId && !error ? (
          <p className="muted">Reading the trace…</p>
        ) : null}
      </Section>
      <Section title="History">
        {history.length ? (
          <ol className="task-history" aria-label="History">
            {history.map((h, i) => (
              <li key={i}>
                <span className="mono muted">
                  {h.offsetMs === null ? formatTime(h.ts, { ms: true }) : `+${formatMs(h.offsetMs)}`}
                </span>{' '}
                {h.what}
              </li>
            ))}
          </ol>
        ) : trace ? (
          <p className="muted">Not in the trace yet.</p>
        ) : null}
      </Section>
      <Section title="Residue">
        {residue.length || cancel ? (
          <Residue items={residue} />
        ) : (
          <p className="muted">{ended ? 'Nothing was left running.' : 'Shown once the task is canceled.'}</p>
        )}
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="task-section" aria-label={title}>
      <h3 className="task-section-title">{title}</h3>
      {children}
    </section>
  );
}

function StatusMessage({ task, agent }: { task: Task; agent: string }) {
  const parts = task.status.message?.parts ?? [];
  const phase = useStudio((s) => taskPhase(s, task.id, task.status.state));
  return (
    <div className="status-message">
      <div className="muted">
        {phase === 'paused'
          ? 'paused at a breakpoint'
          : phase.replace('TASK_STATE_', '').toLowerCase().replace('_', ' ')}
        {task.status.timestamp ? ` at ${formatTime(task.status.timestamp)}` : ''}
        {task.contextId ? (
          <>
            {' '}
            · context <span className="mono">{task.contextId}</span>
          </>
        ) : null}
      </div>
      {/* A question is the status message of a task waiting for input: the reply box under this section shows it once. */}
      {task.status.state === 'TASK_STATE_INPUT_REQUIRED' ? null : parts.length ? (
        parts.map((p, i) => <PartView key={i} part={p} label={`${agent} status`} />)
      ) : (
        <div className="muted">No status message.</div>
      )}
    </div>
  );
}
