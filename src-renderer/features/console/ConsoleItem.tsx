import { isTerminal, type Message, type Task } from '../../../src-shared/a2a';
import {
  answerText,
  delegationPhase,
  taskPhase,
  useStudio,
  type ConsoleEntry,
  type DelegationOutcome,
} from '../../store';
import { InputReply, questionOf } from '../../ui/InputReply';
import { ShortId } from '../../ui/ShortId';
import { TaskStateBadge } from '../../ui/TaskStateBadge';
import { DELEGATION_LABEL } from '../../ui/delegationWords';

const kib = (n: number) => (n < 1024 ? `${n} B` : `${Math.ceil(n / 1024)} KiB`);
const textOf = (m: Message) =>
  m.parts
    .map((p) => p.text ?? (p.data !== undefined ? JSON.stringify(p.data) : p.filename ? `[${p.filename}]` : ''))
    .filter(Boolean)
    .join(' ');

/**
 * The turns of a task after its first message: the capsule's questions and the replies to them.
 * The open question is left to the reply box, and a final message answer to the answer line.
 */
function followUps(task: Task, answer: string): Message[] {
  const rest = (task.history ?? []).slice(1);
  const last = rest[rest.length - 1];
  const lastText = last ? textOf(last) : '';
  if (
    last?.role === 'ROLE_AGENT' &&
    ((task.status.state === 'TASK_STATE_INPUT_REQUIRED' && lastText === questionOf(task)) ||
      (isTerminal(task.status.state) && lastText === answer))
  )
    return rest.slice(0, -1);
  return rest;
}

/** One message of the conversation: what was sent, then the task's state, its turns and its answer. */
export function ConsoleItem({ entry }: { entry: ConsoleEntry }) {
  const rec = useStudio((s) => (entry.taskId ? s.tasks[entry.taskId] : undefined));
  const name = useStudio((s) => s.capsules[entry.capsuleId]?.name ?? entry.capsuleId);
  const cancel = useStudio((s) => (entry.taskId ? s.cancelAnswers[entry.taskId] : undefined));
  const delegations = useStudio((s) => (entry.taskId ? s.delegations[entry.taskId] : undefined));
  const task = rec?.task;
  const phase = useStudio((s) => (task ? taskPhase(s, task.id, task.status.state) : undefined));
  const answer = task ? answerText(task) : '';
  const done = task ? isTerminal(task.status.state) : false;
  return (
    <li className="console-entry" data-testid="console-entry">
      <div className="console-sent">
        <span className="console-to">you → {name}</span>
        <div className="console-sent-body">
          {entry.text ? <span className="console-text">{entry.text}</span> : null}
          {entry.data ? (
            <code className="console-chip" title={entry.data}>
              data {entry.data.length > 60 ? `${entry.data.slice(0, 60)}…` : entry.data}
            </code>
          ) : null}
          {entry.files?.map((f) => (
            <span key={f.name} className="console-chip">
              file {f.name} ({kib(f.size)})
            </span>
          ))}
        </div>
      </div>
      <div className="console-reply">
        {entry.error ? (
          <span className="error-text">Not sent: {entry.error}</span>
        ) : !task && entry.state ? (
          <KeptReply entry={entry} delegations={delegations} />
        ) : !task ? (
          <span className="muted">Sending…</span>
        ) : (
          <>
            <div className="console-meta">
              <TaskStateBadge state={phase ?? task.status.state} />
              <ShortId id={task.id} what="Task" className="muted" />
              {!done ? (
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  onClick={() => void useStudio.getState().cancelTask(entry.capsuleId, task.id)}
                >
                  Cancel
                </button>
              ) : null}
            </div>
            {delegations?.length ? <Delegations taskId={task.id} list={delegations} /> : null}
            {followUps(task, answer).map((m, i) => (
              <div
                key={m.messageId ?? i}
                className="console-turn"
                data-role={m.role === 'ROLE_AGENT' ? 'agent' : 'user'}
              >
                <span className="console-turn-who">{m.role === 'ROLE_AGENT' ? `${name} asked` : 'you replied'}</span>{' '}
                {textOf(m)}
              </div>
            ))}
            <InputReply capsuleId={entry.capsuleId} task={task} />
            {answer && task.status.state !== 'TASK_STATE_INPUT_REQUIRED' ? (
              <div className="console-answer" aria-label="Answer">
                {answer}
              </div>
            ) : null}
            {cancel?.refused ? (
              <div className="muted">
                {cancel.refused.state
                  ? `Could not cancel: it already ended as ${cancel.refused.state.replace('TASK_STATE_', '')}.`
                  : `Could not cancel: ${cancel.refused.message}`}
              </div>
            ) : null}
            {cancel?.error ? <div className="error-text">Cancel failed: {cancel.error}</div> : null}
          </>
        )}
      </div>
    </li>
  );
}

/** A message from a kept conversation whose task is no longer in view: how it stood when kept, and its answer. */
function KeptReply({ entry, delegations }: { entry: ConsoleEntry; delegations?: DelegationOutcome[] }) {
  return (
    <>
      <div className="console-meta">
        {entry.state ? <TaskStateBadge state={entry.state} /> : null}
        {entry.taskId ? <ShortId id={entry.taskId} what="Task" className="muted" /> : null}
        <span
          className="muted"
          title="Kept with the workspace; the task itself is no longer in view (the page was reloaded or the Studio restarted)."
        >
          kept with the workspace
        </span>
      </div>
      {entry.taskId && delegations?.length ? <Delegations taskId={entry.taskId} list={delegations} /> : null}
      {entry.answer ? (
        <div className="console-answer" aria-label="Answer">
          {entry.answer}
        </div>
      ) : null}
    </>
  );
}

/** Each delegation of the task and how it ended, so a failed hand-off is never hidden behind the answer. */
function Delegations({ taskId, list }: { taskId: string; list: DelegationOutcome[] }) {
  const capsules = useStudio((s) => s.capsules);
  const breakpointMarks = useStudio((s) => s.breakpointMarks);
  return (
    <ul className="console-delegations" aria-label="Delegations">
      {list.map((d) => {
        const phase = delegationPhase({ capsules, breakpointMarks }, taskId, d);
        return (
          <li key={d.callId} className="console-delegation" data-state={phase} data-testid="delegation-outcome">
            <span className="console-delegation-to">→ {d.to === '*' ? 'every reachable worker' : d.to}</span>
            <span className="console-delegation-state">{DELEGATION_LABEL[phase]}</span>
            {d.state === 'failed' && d.text ? <span className="console-delegation-text">{d.text}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
