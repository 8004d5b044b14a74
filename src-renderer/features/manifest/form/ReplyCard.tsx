import { issuesAt, useForm } from './FormContext';
import { Problems, TextField } from './fields';
import { moveAt, pushAt, removeAt } from './formDoc';
import { REPLIES, turnsPath, type ReplyView } from './rehearsalScript';
import { TurnCard } from './TurnCard';

/** One reply of the script: its conditions and its turns. */
export function ReplyCard({
  index,
  reply,
  count,
  shadowedBy,
}: {
  index: number;
  reply: ReplyView;
  count: number;
  shadowedBy: number;
}) {
  const { write, issues } = useForm();
  const n = index + 1;
  const name = `Reply ${n}`;
  const problems = issuesAt(issues, [...REPLIES, index], { exact: true });
  return (
    <div className="form-card field-wide" role="group" aria-label={name}>
      <div className="form-card-head">
        <span className="form-card-title">{name}</span>
        <span className="form-card-actions">
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Move reply ${n} up`}
            disabled={index === 0}
            onClick={() => write('replies~', moveAt(REPLIES, index, index - 1))}
          >
            ↑
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Move reply ${n} down`}
            disabled={index === count - 1}
            onClick={() => write('replies~', moveAt(REPLIES, index, index + 1))}
          >
            ↓
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Remove reply ${n}`}
            onClick={() => write('replies-', removeAt(REPLIES, index))}
          >
            Remove
          </button>
        </span>
      </div>
      {reply.malformed ? (
        <p className="field-error">This reply is not a map with a list of turns; fix it in the YAML view.</p>
      ) : (
        <>
          {shadowedBy >= 0 ? (
            <p className="field-warning" role="note">
              Reply {shadowedBy + 1} has no condition and answers every task first, so this one is never used: move it
              up.
            </p>
          ) : null}
          <div className="form-grid">
            <TextField
              label="When the task says"
              name={`Reply ${n} when`}
              path={[...REPLIES, index, 'when']}
              placeholder="any task"
              hint="A case-insensitive substring of the task text, or /regex/flags"
            />
            <TextField
              label="Message id starts with"
              name={`Reply ${n} message id prefix`}
              path={[...REPLIES, index, 'message_id']}
              placeholder="any"
            />
          </div>
          {reply.hasMetadata ? (
            <p className="field-hint">Also matches on message metadata (edited in the YAML view).</p>
          ) : null}
          <Problems id={`reply-${index}-error`} problems={problems} />
          {reply.turns.map((t, j) => (
            <TurnCard
              key={j}
              reply={index}
              index={j}
              turn={t}
              afterCalls={j > 0 && reply.turns[j - 1].calls.length > 0}
            />
          ))}
          {reply.hiddenTurns ? (
            <p className="field-hint">{reply.hiddenTurns} more turns are in the YAML view.</p>
          ) : null}
          <button
            type="button"
            className="btn btn-small form-add"
            aria-label={`Add turn to reply ${n}`}
            onClick={() =>
              write(
                'turns+',
                pushAt(turnsPath(index), { text: reply.turns.at(-1)?.calls.length ? '{{tool_results}}' : 'Done.' }),
              )
            }
          >
            Add turn
          </button>
        </>
      )}
    </div>
  );
}
