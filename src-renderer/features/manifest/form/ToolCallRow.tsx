import { useEffect, useId, useState } from 'react';
import { issuesAt, useForm } from './FormContext';
import { Problems, TextField } from './fields';
import { removeAt, setAt } from './formDoc';
import { callPath, callsPath, delegationTargets, newCall, type ToolCallView } from './rehearsalScript';
import { useFormation } from './useFormation';

const KINDS = ['delegate_task', 'shell'];

/** One scripted tool call: a delegation (to a capsule chosen from the formation), a shell command, or another tool's JSON arguments. */
export function ToolCallRow({
  reply,
  turn,
  index,
  call,
}: {
  reply: number;
  turn: number;
  index: number;
  call: ToolCallView;
}) {
  const { write, issues, capsuleId, selfName } = useForm();
  const { peers, remotes } = useFormation();
  const id = useId();
  const path = callPath(reply, turn, index);
  const name = `Reply ${reply + 1} turn ${turn + 1} call ${index + 1}`;
  const problems = issuesAt(issues, path, { exact: true });
  const toProblems = issuesAt(issues, [...path, 'arguments', 'to']);
  const targets = delegationTargets(
    peers.filter((p) => p.id !== capsuleId).map((p) => p.name),
    selfName,
    call.to,
    remotes,
  );
  return (
    <div className="form-call field-wide" role="group" aria-label={name}>
      <div className="form-call-row">
        <select
          className="select call-kind"
          aria-label={`${name} tool`}
          value={call.name}
          onChange={(e) => {
            const kind = e.target.value;
            if (kind === 'delegate_task' || kind === 'shell') write('call', setAt(path, newCall(kind, call.to || '*')));
          }}
        >
          {!KINDS.includes(call.name) ? <option value={call.name}>{call.name || '—'}</option> : null}
          <option value="delegate_task">Delegate</option>
          <option value="shell">Shell command</option>
        </select>
        {call.name === 'delegate_task' ? (
          <>
            <span className="form-inline-label" aria-hidden="true">
              to
            </span>
            <select
              className="select"
              aria-label={`${name} delegate to`}
              value={call.to}
              aria-invalid={toProblems.length > 0 || undefined}
              onChange={(e) => write(`${path.join('.')}.to`, setAt([...path, 'arguments', 'to'], e.target.value))}
            >
              {call.to === '' ? <option value="">— choose a capsule —</option> : null}
              {targets.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <button
          type="button"
          className="btn btn-small"
          aria-label={`Remove ${name.toLowerCase()}`}
          onClick={() => write('calls-', removeAt(callsPath(reply, turn), index))}
        >
          Remove
        </button>
      </div>
      {call.name === 'delegate_task' ? (
        <TextField
          label="Message to the worker"
          name={`${name} message`}
          path={[...path, 'arguments', 'text']}
          wide
          placeholder="{{task}}"
        />
      ) : call.name === 'shell' ? (
        <TextField
          label="Command"
          name={`${name} command`}
          path={[...path, 'arguments', 'command']}
          wide
          placeholder="git status"
          hint="The program and its arguments; it must be in the shell allow list"
        />
      ) : (
        <ArgsJson name={name} path={path} json={call.argsJson} />
      )}
      <Problems id={`${id}-error`} problems={[...problems, ...toProblems]} />
    </div>
  );
}

/** Another tool's arguments as a JSON object; kept here until the text is one. */
function ArgsJson({ name, path, json }: { name: string; path: readonly (string | number)[]; json: string }) {
  const { write } = useForm();
  const [text, setText] = useState(json);
  useEffect(
    () => setText((t) => (safeParse(t) && JSON.stringify(safeParse(t)) === JSON.stringify(safeParse(json)) ? t : json)),
    [json],
  );
  const bad = text.trim() !== '' && !safeParse(text);
  return (
    <div className="field field-wide">
      <textarea
        className="textarea json-input"
        rows={3}
        aria-label={`${name} arguments (JSON)`}
        value={text}
        aria-invalid={bad || undefined}
        onChange={(e) => {
          setText(e.target.value);
          const v = safeParse(e.target.value);
          if (v) write(`${path.join('.')}.arguments`, setAt([...path, 'arguments'], v));
        }}
      />
      {bad ? (
        <span className="field-error">Not a JSON object yet: the YAML keeps the last valid arguments.</span>
      ) : null}
    </div>
  );
}

function safeParse(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
