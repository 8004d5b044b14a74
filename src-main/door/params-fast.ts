import { MAX_ID_CHARS, type SendMessageParams } from './params';

// SendMessage params in the shape nearly every caller sends, checked by hand: zod's parse cost a
// blocking SendMessage about 40 µs of the door's CPU (bench/door), an eighth of the whole request.
// Anything off that shape (snake_case keys, numeric roles, parts other than text, metadata, push
// configs, any unknown key, any bad value) returns undefined and the zod schema parses it, so
// errors and the unusual shapes have one source of truth. params-fast.test.ts checks that both
// give the same result wherever this one answers.

const PARAM_KEYS = new Set(['tenant', 'message', 'configuration']);
const MESSAGE_KEYS = new Set(['messageId', 'contextId', 'taskId', 'role', 'parts', 'extensions', 'referenceTaskIds']);
const PART_KEYS = new Set(['text', 'mediaType']);
const CONFIG_KEYS = new Set(['acceptedOutputModes', 'historyLength', 'returnImmediately']);
const ROLES = new Set(['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
function only(o: Obj, keys: Set<string>): boolean {
  for (const k in o) if (!keys.has(k)) return false;
  return true;
}
const optString = (v: unknown, nonEmpty = false) =>
  v === undefined || (typeof v === 'string' && (!nonEmpty || v.length > 0));
const optId = (v: unknown) => v === undefined || (typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_CHARS);
const optStrings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'));

/** Sets `key` on `out` when present in `from` (keeps the schema's key order, as zod's output does). */
function copy(out: Obj, from: Obj, key: string, map: (v: never) => unknown = (v) => v) {
  if (from[key] !== undefined) out[key] = map(from[key] as never);
}

function part(p: unknown): Obj | undefined {
  if (!isObj(p) || !only(p, PART_KEYS) || typeof p.text !== 'string' || !optString(p.mediaType)) return undefined;
  return p.mediaType === undefined ? { text: p.text } : { text: p.text, mediaType: p.mediaType };
}

function message(m: unknown): Obj | undefined {
  if (!isObj(m) || !only(m, MESSAGE_KEYS)) return undefined;
  if (
    typeof m.messageId !== 'string' ||
    !m.messageId ||
    m.messageId.length > MAX_ID_CHARS ||
    !optId(m.contextId) ||
    !optId(m.taskId)
  )
    return undefined;
  if (typeof m.role !== 'string' || !ROLES.has(m.role) || !Array.isArray(m.parts) || !m.parts.length) return undefined;
  if (!optStrings(m.extensions) || !optStrings(m.referenceTaskIds)) return undefined;
  const parts: Obj[] = [];
  for (const p of m.parts) {
    const ok = part(p);
    if (!ok) return undefined;
    parts.push(ok);
  }
  const out: Obj = { messageId: m.messageId };
  copy(out, m, 'contextId');
  copy(out, m, 'taskId');
  out.role = m.role;
  out.parts = parts;
  copy(out, m, 'extensions', (v: string[]) => [...v]);
  copy(out, m, 'referenceTaskIds', (v: string[]) => [...v]);
  return out;
}

function configuration(c: unknown): Obj | undefined {
  if (!isObj(c) || !only(c, CONFIG_KEYS) || !optStrings(c.acceptedOutputModes)) return undefined;
  if (c.historyLength !== undefined && !(Number.isInteger(c.historyLength) && (c.historyLength as number) >= 0))
    return undefined;
  if (c.returnImmediately !== undefined && typeof c.returnImmediately !== 'boolean') return undefined;
  const out: Obj = {};
  copy(out, c, 'acceptedOutputModes', (v: string[]) => [...v]);
  copy(out, c, 'historyLength');
  copy(out, c, 'returnImmediately');
  return out;
}

/** The params as sendMessageParams would parse them, or undefined to let it. */
export function fastSendMessageParams(params: unknown): SendMessageParams | undefined {
  if (!isObj(params) || !only(params, PARAM_KEYS) || !optString(params.tenant)) return undefined;
  const msg = message(params.message);
  if (!msg) return undefined;
  const config = params.configuration === undefined ? undefined : configuration(params.configuration);
  if (params.configuration !== undefined && !config) return undefined;
  const out: Obj = {};
  copy(out, params, 'tenant');
  out.message = msg;
  if (config) out.configuration = config;
  return out as unknown as SendMessageParams;
}
