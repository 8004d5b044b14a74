import type { Message } from '../../../src-shared/a2a';
import { PartView } from './PartView';

/** The task's conversation as the door keeps it: the caller's messages and the agent's. */
export function Messages({ history, agent }: { history: Message[]; agent: string }) {
  if (history.length === 0) return <p className="muted">The door keeps no messages for this task.</p>;
  const answered = history.some((m) => m.role !== 'ROLE_USER');
  return (
    <>
      <ol className="messages" aria-label="Messages">
        {history.map((m, i) => {
          const user = m.role === 'ROLE_USER';
          const who = user ? 'User' : agent;
          return (
            <li key={m.messageId || i} className="message" data-role={user ? 'user' : 'agent'} aria-label={`${user ? 'User' : 'Agent'} message`}>
              <div className="message-who">{who}</div>
              {m.parts.map((p, j) => (
                <PartView key={j} part={p} label={`${who} message`} />
              ))}
            </li>
          );
        })}
      </ol>
      {answered ? null : <p className="muted">{agent} answers through the task&apos;s status and artifacts.</p>}
    </>
  );
}
