import {
  A2AError,
  contentTypeNotSupported,
  invalidRequest,
  parseError,
  versionNotSupported,
  type JsonRpcId,
} from '../../src-shared/a2a';
import type { Session } from '../runtime/api';
import { failureOf, paramsProblem } from './call';

// What the door checks of one JSON-RPC request before it looks for the method, and how it words
// its answers. The door's HTTP layer (jsonrpc.ts) and the gateway, which calls the sessions of
// its own process in process (src-main/gateway/in-process.ts), both go through these, so a caller
// meets the same checks, in the same order, and reads the same bytes either way.

/** The largest request body a door reads. */
export const BODY_LIMIT = 1024 * 1024;

/** The door's answer to a body past BODY_LIMIT. */
export const bodyTooLarge = () =>
  invalidRequest(`Request body too large: the door takes at most 1 MiB (${BODY_LIMIT} bytes)`);

/** A request the door takes (its method is still to be found), or the error it answers instead. */
export type CheckedRequest =
  { ok: true; id: JsonRpcId; method: string; params: unknown } | { ok: false; id: JsonRpcId; error: A2AError };

const isJsonType = (ct: string) => {
  const type = ct.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
};

/** `1.0` or `1.0.x` (patch ignored); anything else, or nothing (read as 0.3), is refused. */
const supported = (v: string | undefined) => v !== undefined && /^1\.0(\.\d+)?$/.test(v);

/**
 * The checks in the door's order: a JSON content type, a body that parses (`read` throws when it
 * does not), one request object with jsonrpc "2.0", a string method and a usable id, params
 * (paramsProblem), then the A2A-Version the caller asked for (header, else query; trimmed).
 */
export function checkRequest(contentType: string, version: string | undefined, read: () => unknown): CheckedRequest {
  if (!isJsonType(contentType)) return { ok: false, id: null, error: contentTypeNotSupported(contentType) };
  let body: unknown;
  try {
    body = read();
  } catch {
    return { ok: false, id: null, error: parseError() };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return {
      ok: false,
      id: null,
      error: invalidRequest('Request payload validation error: expected one JSON-RPC request object'),
    };
  const env = body as Record<string, unknown>;
  const rawId = env.id;
  const idOk = rawId === undefined || rawId === null || typeof rawId === 'string' || typeof rawId === 'number';
  const id = (idOk ? (rawId ?? null) : null) as JsonRpcId;
  if (env.jsonrpc !== '2.0' || typeof env.method !== 'string' || !idOk) {
    return {
      ok: false,
      id,
      error: invalidRequest(
        'Request payload validation error: needs jsonrpc "2.0", a string method and a string, number or null id',
      ),
    };
  }
  const bad = paramsProblem(env.params);
  if (bad) return { ok: false, id, error: bad };
  const v = version?.trim() || undefined;
  if (!supported(v)) return { ok: false, id, error: versionNotSupported(v) };
  return { ok: true, id, method: env.method, params: env.params };
}

/** The door's error answer. */
export const errorText = (id: JsonRpcId, err: A2AError): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: err.toJSON() });

/** The door's answer carrying a method's result; a result that cannot be encoded is the method's failure. */
export function resultAnswer(
  session: Session,
  id: JsonRpcId,
  method: string,
  result: unknown,
): { text: string; error?: A2AError } {
  try {
    return { text: JSON.stringify({ jsonrpc: '2.0', id, result }) };
  } catch (err) {
    const error = failureOf(session, method, err);
    return { text: errorText(id, error), error };
  }
}
