import { useStudio, type OpenSession } from '../../store';
import { shortId } from '../../ui/ShortId';

/** "Fork from here" on the task picked in the opened session (or its only task). */
export function ForkButton({ o }: { o: OpenSession }) {
  const task = o.tasks.find((t) => t.id === o.task) ?? (o.tasks.length === 1 ? o.tasks[0] : undefined);
  const ended = !!task && task.state !== 'TASK_STATE_WORKING' && task.state !== 'TASK_STATE_SUBMITTED';
  return (
    <button
      type="button"
      className="btn btn-small"
      disabled={!ended}
      title={
        !task
          ? 'Pick a task to fork'
          : ended
            ? 'Run this task again from a turn: earlier turns replay the recording'
            : 'The task has not ended yet'
      }
      onClick={() =>
        task &&
        void useStudio.getState().openForkForm({
          sessionId: o.session.id,
          taskId: task.id,
          turn: 1,
          lastTurn: Math.max(1, task.turns),
          recorded: task.text ?? '',
        })
      }
    >
      Fork from here
    </button>
  );
}

/** Compare the opened session with another one of the list. */
export function CompareWith({ sessionId }: { sessionId: string }) {
  const others = useStudio((s) => s.sessionList).filter((x) => x.id !== sessionId);
  return (
    <select
      className="select"
      aria-label="Compare with"
      value=""
      onChange={(e) => {
        if (e.target.value) void useStudio.getState().compareSessions(sessionId, e.target.value);
      }}
    >
      <option value="">Compare with…</option>
      {others.slice(0, 200).map((x) => (
        <option key={x.id} value={x.id}>
          {x.capsule ?? '?'} {shortId(x.id)}
          {x.forkedFrom ? ' (fork)' : ''}
        </option>
      ))}
    </select>
  );
}
