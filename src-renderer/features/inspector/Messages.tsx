import type { Message } from '../../../src-shared/a2a';
import { PartView } from './PartView';
import type { TurnView } from './taskTrace';

/**
 * The task's conversation: the messages the door keeps (the caller's, and the agent's where it
 * kept them), then what the agent said in each turn, from the trace, with the tools it called.
 */
export function Messages({ history, turns, agent }: { history: Message[]; turns: TurnView[]; agent: string }) {
  const said = turns.filter((t) => t.text || t.tools.length);
  if (history.length === 0 && said.length === 0) return <p className="muted">No messages for this task yet.</p>;
  return (
    <ol className="messages" aria-label="Messages">
      {history.map((m, i) => {
        const user = m.role === 'ROLE_USER';
        const who = user ? 'User' : agent;
        return (
          <li
            key={m.messageId || i}
            className="message"
            data-role={user ? 'user' : 'agent'}
            aria-label={`${user ? 'User' : 'Agent'} message`}
          >
            <div className="message-who">{who}</div>
            {m.parts.map((p, j) => (
              <PartView key={j} part={p} label={`${who} message`} />
            ))}
          </li>
        );
      })}
      {said.map((t) => (
        <li key={`turn-${t.turn}`} className="message" data-role="agent" aria-label="Agent message">
          <div className="message-who">
            {agent} · turn {t.turn}
          </div>
          {t.text ? <div className="part-text">{t.text}</div> : null}
          {t.tools.length ? (
            <div className="muted message-calls">called {t.tools.map((c) => c.name).join(', ')}</div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
