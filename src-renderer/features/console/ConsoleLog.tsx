import { useEffect, useRef } from 'react';
import { useStudio, type ConsoleEntry } from '../../store';
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
  return (
    <ol className="console-log" ref={log} aria-label="Conversation">
      {entries.map((e) => (
        <ConsoleItem key={e.key} entry={e} />
      ))}
    </ol>
  );
}
