import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { isTerminal } from '../../../src-shared/a2a';
import { answerText, entriesOf, useStudio, type ConsoleEntry, type DelegationOutcome } from '../../store';
import { TaskStateBadge } from './TaskStateBadge';
import './console.css';

/** Send a message to a running capsule and read its answer, with the task's state and id. */
export function ConsolePanel() {
  const target = useStudio((s) => s.consoleTarget);
  const selectedId = useStudio((s) => s.selectedId);
  const capsuleIds = useStudio((s) => s.capsuleIds);
  const capsules = useStudio((s) => s.capsules);
  const allEntries = useStudio((s) => s.consoleEntries);
  const dir = useStudio((s) => s.workspace?.dir);
  const entries = useMemo(() => entriesOf(allEntries, dir), [allEntries, dir]);
  const [text, setText] = useState('');
  const log = useRef<HTMLOListElement>(null);

  // Default target: the selected capsule, else the first orchestrator.
  useEffect(() => {
    const s = useStudio.getState();
    if (target && s.capsules[target]) return;
    const pick = (selectedId && s.capsules[selectedId] ? selectedId : null) ?? s.capsuleIds.find((id) => s.capsules[id].role === 'orchestrator') ?? s.capsuleIds[0] ?? null;
    if (pick !== target) s.setConsoleTarget(pick);
  }, [target, selectedId, capsuleIds]);

  // The newest entry stays in view as it grows (sent, then its delegations, then its answer).
  const last = entries[entries.length - 1];
  const lastShape = useStudio((s) => {
    const t = last?.taskId ? s.tasks[last.taskId] : undefined;
    return `${last?.key}:${t?.task.status.state ?? ''}:${last?.taskId ? (s.delegations[last.taskId]?.length ?? 0) : 0}`;
  });
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [lastShape]);

  const capsule = target ? capsules[target] : undefined;
  const running = !!capsule && capsule.state !== 'stopped' && capsule.state !== 'failed';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim() || !running) return;
    void useStudio.getState().sendMessage(text.trim());
    setText('');
  };

  return (
    <section className="console" aria-label="Console">
      <form className="console-bar" onSubmit={submit}>
        <h2 className="console-title">Console</h2>
        <label className="visually-hidden" htmlFor="console-target">
          Capsule
        </label>
        <select id="console-target" className="select" value={target ?? ''} onChange={(e) => useStudio.getState().setConsoleTarget(e.target.value || null)}>
          {capsuleIds.length === 0 ? <option value="">No capsules</option> : null}
          {capsuleIds.map((id) => (
            <option key={id} value={id}>
              {capsules[id].name} ({capsules[id].state})
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor="console-message">
          Message
        </label>
        <input
          id="console-message"
          className="input console-input"
          placeholder={running ? `Message ${capsule?.name}…` : capsule ? `Launch ${capsule.name} to send it a message` : 'Add a capsule first'}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={!running}
        />
        <button type="submit" className="btn btn-primary" disabled={!running || !text.trim()}>
          Send
        </button>
      </form>
      <ol className="console-log" ref={log} aria-label="Console log">
        {entries.length === 0 ? <li className="console-empty muted">Launch the formation, then send a capsule a message here.</li> : null}
        {entries.map((e) => (
          <ConsoleItem key={e.key} entry={e} />
        ))}
      </ol>
    </section>
  );
}

function ConsoleItem({ entry }: { entry: ConsoleEntry }) {
  const rec = useStudio((s) => (entry.taskId ? s.tasks[entry.taskId] : undefined));
  const name = useStudio((s) => s.capsules[entry.capsuleId]?.name ?? entry.capsuleId);
  const cancel = useStudio((s) => (entry.taskId ? s.cancelAnswers[entry.taskId] : undefined));
  const delegations = useStudio((s) => (entry.taskId ? s.delegations[entry.taskId] : undefined));
  const task = rec?.task;
  const answer = task ? answerText(task) : '';
  const done = task ? isTerminal(task.status.state) : false;
  return (
    <li className="console-entry" data-testid="console-entry">
      <div className="console-sent">
        <span className="console-to">to {name}</span>
        <span className="console-text">{entry.text}</span>
      </div>
      <div className="console-reply">
        {entry.error ? (
          <span className="error-text">Not sent: {entry.error}</span>
        ) : !task ? (
          <span className="muted">Sending…</span>
        ) : (
          <>
            <div className="console-meta">
              <TaskStateBadge state={task.status.state} />
              <span className="mono muted" title="Task id">
                {task.id}
              </span>
              {!done ? (
                <button type="button" className="btn btn-small btn-danger" onClick={() => void useStudio.getState().cancelTask(entry.capsuleId, task.id)}>
                  Cancel
                </button>
              ) : null}
            </div>
            {delegations?.length ? <Delegations list={delegations} /> : null}
            {answer ? (
              <div className="console-answer" aria-label="Answer">
                {answer}
              </div>
            ) : null}
            {cancel?.refused ? (
              <div className="muted">
                {cancel.refused.state ? `Could not cancel: it already ended as ${cancel.refused.state.replace('TASK_STATE_', '')}.` : `Could not cancel: ${cancel.refused.message}`}
              </div>
            ) : null}
            {cancel?.error ? <div className="error-text">Cancel failed: {cancel.error}</div> : null}
          </>
        )}
      </div>
    </li>
  );
}

const OUTCOME_LABEL: Record<DelegationOutcome['state'], string> = { running: 'working…', answered: 'answered', failed: 'failed', canceled: 'canceled' };

/** Each delegation of the task and how it ended, so a failed hand-off is never hidden behind the answer. */
function Delegations({ list }: { list: DelegationOutcome[] }) {
  return (
    <ul className="console-delegations" aria-label="Delegations">
      {list.map((d) => (
        <li key={d.callId} className="console-delegation" data-state={d.state} data-testid="delegation-outcome">
          <span className="console-delegation-to">→ {d.to === '*' ? 'every reachable worker' : d.to}</span>
          <span className="console-delegation-state">{OUTCOME_LABEL[d.state]}</span>
          {d.state === 'failed' && d.text ? <span className="console-delegation-text">{d.text}</span> : null}
        </li>
      ))}
    </ul>
  );
}
