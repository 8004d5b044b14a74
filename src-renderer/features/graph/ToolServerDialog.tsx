import { useState, type FormEvent } from 'react';
import { toolServerDefinition, type ToolServerDefinition } from '../../../src-shared/contract';
import { useStudio } from '../../store';
import { Dialog, FormActions } from '../../ui/Dialog';

// Adds or edits a tool server (MCP): a local process (command, arguments, environment, folder) or
// a remote server (URL, headers). Secrets are written as ${VAR}: the value stays in Secrets.

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/i;

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** `KEY=value` (env) or `Name: value` (headers), one a line. */
function pairs(text: string, sep: '=' | ':'): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const l of lines(text)) {
    const at = l.indexOf(sep);
    if (at <= 0) throw new Error(`"${l}" is not ${sep === '=' ? 'NAME=value' : 'Name: value'}`);
    out[l.slice(0, at).trim()] = l.slice(at + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

const unpairs = (m: Record<string, string> | undefined, sep: string) =>
  Object.entries(m ?? {})
    .map(([k, v]) => `${k}${sep}${v}`)
    .join('\n');

export function ToolServerDialog() {
  const prompt = useStudio((s) => s.toolServerPrompt);
  const editing = useStudio((s) => (prompt && 'id' in prompt ? s.toolServers[prompt.id] : undefined));
  if (!prompt) return null;
  return (
    <ToolServerForm
      key={'id' in prompt ? prompt.id : 'new'}
      editing={editing}
      position={'position' in prompt ? prompt.position : undefined}
    />
  );
}

function ToolServerForm({
  editing,
  position,
}: {
  editing?: ToolServerDefinition & { id: string; name: string };
  position?: { x: number; y: number };
}) {
  const [name, setName] = useState(editing?.name ?? '');
  const [remote, setRemote] = useState(editing?.url !== undefined);
  const [command, setCommand] = useState(editing?.command ?? 'npx');
  const [args, setArgs] = useState((editing?.args ?? []).join('\n'));
  const [env, setEnv] = useState(unpairs(editing?.env, '='));
  const [cwd, setCwd] = useState(editing?.cwd ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [headers, setHeaders] = useState(unpairs(editing?.headers, ': '));
  const [error, setError] = useState<string | null>(null);
  const close = () => useStudio.getState().askToolServer(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing && !NAME.test(name))
      return setError('The name: letters, digits or dashes, at most 32 (the model sees its tools as <name>__<tool>).');
    let def: ToolServerDefinition;
    try {
      const raw = remote
        ? { url: url.trim(), headers: pairs(headers, ':') }
        : {
            command: command.trim(),
            args: lines(args),
            env: pairs(env, '='),
            ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
          };
      const parsed = toolServerDefinition.safeParse(
        Object.fromEntries(
          Object.entries(raw).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
        ),
      );
      if (!parsed.success)
        return setError(parsed.error.issues.map((i) => `${i.path.join('.') || 'server'}: ${i.message}`).join('; '));
      def = { ...parsed.data, ...(editing?.timeout !== undefined ? { timeout: editing.timeout } : {}) };
    } catch (err) {
      return setError((err as Error).message);
    }
    const s = useStudio.getState();
    const ok = editing
      ? await s.updateToolServer(editing.id, def)
      : await s.addToolServer(name, def, position ?? { x: 0, y: 0 });
    if (ok) close();
  };
  return (
    <Dialog title={editing ? `Edit tool server ${editing.name}` : 'Add a tool server (MCP)'} onClose={close}>
      <form onSubmit={submit} className="field" noValidate>
        {editing ? null : (
          <>
            <label className="field-label" htmlFor="ts-name">
              Name
            </label>
            <input
              id="ts-name"
              className="input"
              autoFocus
              placeholder="files"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </>
        )}
        <div role="radiogroup" aria-label="Where the server runs" className="ts-kind">
          <label>
            <input type="radio" name="ts-kind" checked={!remote} onChange={() => setRemote(false)} /> Local process
          </label>
          <label>
            <input type="radio" name="ts-kind" checked={remote} onChange={() => setRemote(true)} /> Remote URL
          </label>
        </div>
        {remote ? (
          <>
            <label className="field-label" htmlFor="ts-url">
              URL
            </label>
            <input
              id="ts-url"
              className="input"
              placeholder="https://mcp.example.com/mcp"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
            <label className="field-label" htmlFor="ts-headers">
              Headers (Name: value, one a line; secrets as ${'${VAR}'})
            </label>
            <textarea
              id="ts-headers"
              className="input"
              rows={2}
              placeholder="Authorization: Bearer ${TOKEN}"
              value={headers}
              onChange={(e) => setHeaders(e.target.value)}
            />
          </>
        ) : (
          <>
            <label className="field-label" htmlFor="ts-command">
              Command
            </label>
            <input id="ts-command" className="input" value={command} onChange={(e) => setCommand(e.target.value)} />
            <label className="field-label" htmlFor="ts-args">
              Arguments (one a line)
            </label>
            <textarea
              id="ts-args"
              className="input"
              rows={3}
              placeholder={'-y\n@modelcontextprotocol/server-filesystem\n./data'}
              value={args}
              onChange={(e) => setArgs(e.target.value)}
            />
            <label className="field-label" htmlFor="ts-env">
              Environment (NAME=value, one a line; secrets as ${'${VAR}'}; nothing else is passed on but PATH)
            </label>
            <textarea id="ts-env" className="input" rows={2} value={env} onChange={(e) => setEnv(e.target.value)} />
            <label className="field-label" htmlFor="ts-cwd">
              Folder (relative to the workspace)
            </label>
            <input id="ts-cwd" className="input" placeholder="." value={cwd} onChange={(e) => setCwd(e.target.value)} />
          </>
        )}
        {error ? (
          <span className="field-error" role="alert">
            {error}
          </span>
        ) : null}
        <FormActions onCancel={close} submit={editing ? 'Save' : 'Add tool server'} />
      </form>
    </Dialog>
  );
}
