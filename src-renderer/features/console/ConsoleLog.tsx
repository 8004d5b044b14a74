import { useEffect, useRef } from 'react';
import { readRecentFlow, useStudio, type ConsoleEntry } from '../../store';
import { ConsoleItem } from './ConsoleItem';

/** A conversation's entries, the newest kept in view. */
export function ConsoleLog({ entries }: { entries: ConsoleEntry[] }) {
  const log = useRef<HTMLOListElement>(null);
  // The newest entry stays in view as it grows (sent, then its delegations, its questions, its answer).
  const last = entries[entries.length - 1];
  const lastShape = useStudio((s) => {
    const t = last?.taskId ? s.tasks[last.taskId] : undefined;
    return `${last?.key}:${last?.error ?? ''}:${t?.task.status.state ?? ''}:${t?.task.history?.length ?? 0}:${last?.taskId ? (s.delegations[last.taskId]?.length ?? 0) : 0}`;
  });
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [lastShape]);
  // Tasks this page did not see (it was reloaded since): read, once, in the background, the
  // capsule's tasks (a task its running session still holds reads as that task, as in the Tasks
  // tab, not as kept) and the recent flow of the sessions that ran them (their delegations,
  // whether the session still runs or was stopped), as the page that watched showed them.
  const capsuleId = last?.capsuleId;
  const unseenTask = useStudio((s) => entries.some((e) => e.taskId && !s.tasks[e.taskId]));
  // Which entries' delegations are unseen, as one string (a stable selector result).
  const unseenFlow = useStudio((s) =>
    entries
      .filter((e) => e.taskId && !s.delegations[e.taskId])
      .map((e) => e.key)
      .join(' '),
  );
  const sessionId = useStudio((s) => (capsuleId ? s.capsules[capsuleId]?.sessionId : undefined));
  const linked = useStudio((s) => s.linked);
  useEffect(() => {
    if (capsuleId && sessionId && unseenTask && linked) void useStudio.getState().loadTasks(capsuleId);
  }, [capsuleId, unseenTask, sessionId, linked]);
  useEffect(() => {
    // Again when the link comes back; `entries` as they stand when the unseen ones change (a new
    // array of the same entries reads nothing new). Which sessions are read: `readRecentFlow`.
    if (unseenFlow) readRecentFlow(entries);
  }, [unseenFlow, sessionId, linked]);
  return (
    <ol className="console-log" ref={log} aria-label="Conversation">
      {entries.map((e) => (
        <ConsoleItem key={e.key} entry={e} />
      ))}
    </ol>
  );
}
