import { invalidParams } from './errors';

// A2A 0.3 shapes and their 1.0 counterparts, both ways: `kind` tags, lowercase states and roles,
// the nested `file` part, bare results. The gateway uses it to answer 0.3 callers, the peer client
// to speak to 0.3 agents; what differs per method (names, params, `final`) stays with each.

type Obj = Record<string, any>;

/** TASK_STATE_INPUT_REQUIRED -> input-required (TASK_STATE_UNSPECIFIED -> unknown). */
export const stateTo03 = (s: string) =>
  (s ?? 'TASK_STATE_UNSPECIFIED')
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-')
    .replace('unspecified', 'unknown');
/** input-required -> TASK_STATE_INPUT_REQUIRED (unknown or missing -> TASK_STATE_UNSPECIFIED). */
export const stateTo10 = (s: unknown) =>
  typeof s === 'string' && s && s !== 'unknown'
    ? `TASK_STATE_${s.toUpperCase().replace(/-/g, '_')}`
    : 'TASK_STATE_UNSPECIFIED';
export const roleTo10 = (r: unknown) => (r === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER');
export const roleTo03 = (r: unknown) => (r === 'ROLE_AGENT' ? 'agent' : 'user');

/** A 0.3 part as a 1.0 part; undefined when it is none of text, data or file (bytes or uri). */
function partOf03(p: Obj): Obj | undefined {
  const meta = p?.metadata ? { metadata: p.metadata } : {};
  if (p?.kind === 'text') return { text: String(p.text ?? ''), ...meta };
  if (p?.kind === 'data') return { data: p.data, ...meta };
  if (p?.kind === 'file' && p.file) {
    const f = p.file as Obj;
    const common = {
      ...(f.mimeType ? { mediaType: f.mimeType } : {}),
      ...(f.name ? { filename: f.name } : {}),
      ...meta,
    };
    if (typeof f.bytes === 'string') return { raw: f.bytes, ...common };
    if (typeof f.uri === 'string') return { url: f.uri, ...common };
  }
  return undefined;
}

/** A caller's 0.3 part; anything else is the caller's mistake (-32602). */
export function partTo10(p: Obj, i: number): Obj {
  const part = partOf03(p);
  if (!part)
    throw invalidParams(`params.message.parts[${i}]`, 'a 0.3 part has kind text, data or file (with bytes or uri)');
  return part;
}

export function partTo03(p: Obj): Obj {
  const meta = p.metadata ? { metadata: p.metadata } : {};
  if (p.text !== undefined) return { kind: 'text', text: p.text, ...meta };
  if (p.data !== undefined) return { kind: 'data', data: p.data, ...meta };
  const file = { ...(p.mediaType ? { mimeType: p.mediaType } : {}), ...(p.filename ? { name: p.filename } : {}) };
  return { kind: 'file', file: p.raw !== undefined ? { bytes: p.raw, ...file } : { uri: p.url, ...file }, ...meta };
}

export function messageTo10(m: Obj): Obj {
  if (!m || typeof m !== 'object' || !Array.isArray(m.parts))
    throw invalidParams('params.message', 'a message with parts is required');
  const { kind: _k, role, parts, ...rest } = m;
  return { ...rest, role: roleTo10(role), parts: parts.map(partTo10) };
}

export function messageTo03(m: Obj | undefined): Obj | undefined {
  if (!m) return m;
  return { ...m, kind: 'message', role: roleTo03(m.role), parts: (m.parts ?? []).map(partTo03) };
}

const statusTo03 = (s: Obj) => ({
  ...s,
  state: stateTo03(s?.state),
  ...(s?.message ? { message: messageTo03(s.message) } : {}),
});
const artifactTo03 = (a: Obj) => ({ ...a, parts: (a.parts ?? []).map(partTo03) });

export { statusTo03, artifactTo03 };

export function taskTo03(t: Obj): Obj {
  return {
    ...t,
    kind: 'task',
    status: statusTo03(t.status),
    ...(t.artifacts ? { artifacts: t.artifacts.map(artifactTo03) } : {}),
    ...(t.history ? { history: t.history.map(messageTo03) } : {}),
  };
}

// An agent's answers, read leniently: a part of a kind 1.0 does not have becomes a data part
// holding it, so nothing the peer said is lost and nothing it said can fail the translation.
const answerPart = (p: Obj) => partOf03(p) ?? { data: p ?? null };

/** A 0.3 agent's message (kind: message) in 1.0 shape. */
export function agentMessageTo10(m: Obj | undefined): Obj | undefined {
  if (!m || typeof m !== 'object') return undefined;
  const { kind: _k, role, parts, ...rest } = m;
  return { ...rest, role: roleTo10(role), parts: Array.isArray(parts) ? parts.map(answerPart) : [] };
}

/** A 0.3 agent's task (kind: task) in 1.0 shape. */
export function taskTo10(t: Obj): Obj {
  const { kind: _k, status, artifacts, history, ...rest } = t;
  const message = agentMessageTo10(status?.message);
  return {
    ...rest,
    status: { ...status, state: stateTo10(status?.state), ...(message ? { message } : {}) },
    ...(Array.isArray(artifacts)
      ? {
          artifacts: artifacts.map((a: Obj) => ({
            ...a,
            parts: Array.isArray(a?.parts) ? a.parts.map(answerPart) : [],
          })),
        }
      : {}),
    ...(Array.isArray(history) ? { history: history.map(agentMessageTo10).filter(Boolean) } : {}),
  };
}
