import { useForm } from './FormContext';
import { CheckField, SelectField, TextArea, TextField } from './fields';
import { pushAt, removeAt } from './formDoc';
import { callsPath, newCall, turnPath, turnsPath, type TurnView } from './rehearsalScript';
import { ToolCallRow } from './ToolCallRow';
import { useFormation } from './useFormation';

/** One scripted turn: its text, tool calls (delegations, shell commands), and the rarer knobs under More. */
export function TurnCard({
  reply,
  index,
  turn,
  afterCalls,
}: {
  reply: number;
  index: number;
  turn: TurnView;
  afterCalls: boolean;
}) {
  const { write, capsuleId } = useForm();
  const { peers } = useFormation();
  const name = `Reply ${reply + 1} turn ${index + 1}`;
  const path = turnPath(reply, index);
  const firstPeer = peers.find((p) => p.id !== capsuleId)?.name ?? '*';
  return (
    <div className="form-turn" role="group" aria-label={name}>
      <div className="form-card-head">
        <span className="form-turn-title">Turn {index + 1}</span>
        <span className="form-card-actions">
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Add delegation to ${name.toLowerCase()}`}
            onClick={() => write('calls+', pushAt(callsPath(reply, index), newCall('delegate_task', firstPeer)))}
          >
            + Delegation
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Add shell command to ${name.toLowerCase()}`}
            onClick={() => write('calls+', pushAt(callsPath(reply, index), newCall('shell', '')))}
          >
            + Shell
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Remove ${name.toLowerCase()}`}
            onClick={() => write('turns-', removeAt(turnsPath(reply), index))}
          >
            Remove
          </button>
        </span>
      </div>
      <div className="form-grid">
        <TextArea
          label="Text"
          name={`${name} text`}
          path={[...path, 'text']}
          rows={2}
          placeholder={afterCalls ? '{{tool_results}}' : 'The answer; {{task}} is the task text'}
          hint="{{task}}: the task's text; {{tool_results}}: one line per tool call of the previous turn"
        />
        {afterCalls || turn.failedText ? (
          <TextArea
            label="Text when every call failed"
            name={`${name} failed text`}
            path={[...path, 'failed_text']}
            rows={2}
            placeholder="No worker could do it: {{tool_results}}"
          />
        ) : null}
        {afterCalls || turn.partialText ? (
          <TextArea
            label="Text when some calls failed"
            name={`${name} partial text`}
            path={[...path, 'partial_text']}
            rows={2}
            placeholder="Only some workers answered: {{tool_results}}"
          />
        ) : null}
        {turn.calls.map((c, k) => (
          <ToolCallRow key={k} reply={reply} turn={index} index={k} call={c} />
        ))}
        {turn.hiddenCalls ? (
          <p className="field-hint field-wide">{turn.hiddenCalls} more tool calls are in the YAML view.</p>
        ) : null}
        <details className="form-more field-wide">
          <summary>More for turn {index + 1}</summary>
          <div className="form-grid">
            <TextField
              label="Fail with error"
              name={`${name} error`}
              path={[...path, 'error']}
              wide
              placeholder="the inference call succeeds"
            />
            <TextField
              label="Delay (ms)"
              name={`${name} delay (ms)`}
              path={[...path, 'delay_ms']}
              kind="int"
              placeholder="script delay"
            />
            <SelectField
              label="Stop reason"
              name={`${name} stop reason`}
              path={[...path, 'stop']}
              options={['end_turn', 'max_tokens', 'tool_use']}
              emptyLabel="by the turn"
            />
            <TextField
              label="Tokens in"
              name={`${name} tokens in`}
              path={[...path, 'tokens_in']}
              kind="int"
              placeholder="estimated"
            />
            <TextField
              label="Tokens out"
              name={`${name} tokens out`}
              path={[...path, 'tokens_out']}
              kind="int"
              placeholder="estimated"
            />
            <CheckField
              label="Hang until canceled"
              name={`${name} hangs until canceled`}
              path={[...path, 'hang']}
              removeWhenOff
            />
          </div>
        </details>
        {turn.others.length ? (
          <p className="field-hint field-wide">Also has {turn.others.join(', ')}: edited in the YAML view.</p>
        ) : null}
      </div>
    </div>
  );
}
