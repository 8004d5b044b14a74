import { invalidParams } from '../../src-shared/a2a';

// A2A 0.3 compatibility (opt-in per exposure): 0.3 method names and `kind` shapes translated to
// the 1.0 door and back. Lowercase states and roles, `final` on status updates, `blocking`
// (default false) instead of `returnImmediately` (default false), bare results without wrappers.

type Obj = Record<string, any>;

/** 0.3 method -> 1.0 method the door answers. */
export const METHODS_03: Record<string, string> = {
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/get': 'GetTask',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
};
export const EXTENDED_CARD_03 = 'agent/getAuthenticatedExtendedCard';
export const is03Method = (m: string) => m in METHODS_03 || m === EXTENDED_CARD_03;

const stateTo03 = (s: string) => (s ?? 'TASK_STATE_UNSPECIFIED').replace(/^TASK_STATE_/, '').toLowerCase().replace(/_/g, '-').replace('unspecified', 'unknown');
const roleTo10 = (r: unknown) => (r === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER');
const roleTo03 = (r: unknown) => (r === 'ROLE_AGENT' ? 'agent' : 'user');
const INTERRUPTED_OR_DONE = new Set(['completed', 'failed', 'canceled', 'rejected', 'input-required', 'auth-required']);

function partTo10(p: Obj, i: number): Obj {
  const meta = p.metadata ? { metadata: p.metadata } : {};
  if (p.kind === 'text') return { text: String(p.text ?? ''), ...meta };
  if (p.kind === 'data') return { data: p.data, ...meta };
  if (p.kind === 'file' && p.file) {
    const f = p.file as Obj;
    const common = { ...(f.mimeType ? { mediaType: f.mimeType } : {}), ...(f.name ? { filename: f.name } : {}), ...meta };
    if (typeof f.bytes === 'string') return { raw: f.bytes, ...common };
    if (typeof f.uri === 'string') return { url: f.uri, ...common };
  }
  throw invalidParams(`params.message.parts[${i}]`, 'a 0.3 part has kind text, data or file (with bytes or uri)');
}

function partTo03(p: Obj): Obj {
  const meta = p.metadata ? { metadata: p.metadata } : {};
  if (p.text !== undefined) return { kind: 'text', text: p.text, ...meta };
  if (p.data !== undefined) return { kind: 'data', data: p.data, ...meta };
  const file = { ...(p.mediaType ? { mimeType: p.mediaType } : {}), ...(p.filename ? { name: p.filename } : {}) };
  return { kind: 'file', file: p.raw !== undefined ? { bytes: p.raw, ...file } : { uri: p.url, ...file }, ...meta };
}

function messageTo10(m: Obj): Obj {
  if (!m || typeof m !== 'object' || !Array.isArray(m.parts)) throw invalidParams('params.message', 'a message with parts is required');
  const { kind: _k, role, parts, ...rest } = m;
  return { ...rest, role: roleTo10(role), parts: parts.map(partTo10) };
}

export function messageTo03(m: Obj | undefined): Obj | undefined {
  if (!m) return m;
  return { ...m, kind: 'message', role: roleTo03(m.role), parts: (m.parts ?? []).map(partTo03) };
}

const statusTo03 = (s: Obj) => ({ ...s, state: stateTo03(s?.state), ...(s?.message ? { message: messageTo03(s.message) } : {}) });
const artifactTo03 = (a: Obj) => ({ ...a, parts: (a.parts ?? []).map(partTo03) });

export function taskTo03(t: Obj): Obj {
  return {
    ...t,
    kind: 'task',
    status: statusTo03(t.status),
    ...(t.artifacts ? { artifacts: t.artifacts.map(artifactTo03) } : {}),
    ...(t.history ? { history: t.history.map(messageTo03) } : {}),
  };
}

/** Translates 0.3 params to the door's 1.0 params. */
export function paramsTo10(method03: string, p: Obj = {}): Obj {
  if (method03 === 'message/send' || method03 === 'message/stream') {
    const c = (p.configuration ?? {}) as Obj;
    const push = c.pushNotificationConfig as Obj | undefined;
    return {
      message: messageTo10(p.message),
      configuration: {
        ...(c.acceptedOutputModes ? { acceptedOutputModes: c.acceptedOutputModes } : {}),
        ...(c.historyLength !== undefined ? { historyLength: c.historyLength } : {}),
        returnImmediately: c.blocking !== true,
        ...(push
          ? { taskPushNotificationConfig: { url: push.url, ...(push.id ? { id: push.id } : {}), ...(push.token ? { token: push.token } : {}), ...(push.authentication ? { authentication: { scheme: push.authentication.schemes?.[0] ?? 'Bearer', credentials: push.authentication.credentials } } : {}) } }
          : {}),
      },
      ...(p.metadata ? { metadata: p.metadata } : {}),
    };
  }
  return { id: p.id, ...(p.historyLength !== undefined ? { historyLength: p.historyLength } : {}), ...(p.metadata ? { metadata: p.metadata } : {}) };
}

/** Translates one 1.0 result (plain answer or stream event) to the 0.3 shape. */
export function resultTo03(result: Obj): Obj {
  if (!result || typeof result !== 'object') return result;
  if (result.task) return taskTo03(result.task);
  if (result.message) return messageTo03(result.message)!;
  if (result.statusUpdate) {
    const u = result.statusUpdate as Obj;
    const status = statusTo03(u.status);
    return { ...u, kind: 'status-update', status, final: u.final ?? INTERRUPTED_OR_DONE.has(status.state) };
  }
  if (result.artifactUpdate) {
    const u = result.artifactUpdate as Obj;
    return { ...u, kind: 'artifact-update', artifact: artifactTo03(u.artifact ?? {}) };
  }
  if (result.id && result.status) return taskTo03(result); // GetTask / CancelTask answer a bare Task
  return result;
}

/** Rewrites one JSON-RPC envelope from the door (result or error) for a 0.3 caller. */
export function envelopeTo03(envelope: Obj): Obj {
  return 'result' in envelope ? { ...envelope, result: resultTo03(envelope.result) } : envelope;
}
