import {
  A2AError,
  internalError,
  invalidParams,
  invalidRequest,
  methodNotFound,
  unsupportedOperation,
} from '../../src-shared/a2a';
import type { IncomingHttpHeaders } from 'node:http';
import type { Session } from '../runtime/api';
import { MAX_PARAMS_DEPTH, tooDeepField } from './depth';
import { servedPart, type MethodHandler, type MethodTable } from './methods';
import { doorMethods } from './methods/index';

// The part of a door call that does not depend on how it arrived. The HTTP door (jsonrpc.ts) and
// the Studio core calling its own sessions in process (callSession below) both go through it, so
// a request meets the same table, the same params checks and the same errors either way. Only
// what belongs to HTTP stays in jsonrpc.ts: content type, body size, A2A-Version, the peer header
// and the connection cap. A caller inside the process is never a peer: it is the person running
// the session.

/** params must be absent or an object nested at most MAX_PARAMS_DEPTH levels: the refusal, or undefined. */
export function paramsProblem(params: unknown): A2AError | undefined {
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    return invalidRequest('Request payload validation error: params must be an object');
  }
  const deep = tooDeepField(params);
  return deep ? invalidParams(deep, `nested deeper than ${MAX_PARAMS_DEPTH} levels of objects and arrays`) : undefined;
}

/** A handler's failure as its caller sees it: its own A2A error, or -32603 with the cause in the trace only. */
export function failureOf(session: Session, method: string, err: unknown): A2AError {
  if (err instanceof A2AError) return err;
  session.trace.append({ event_type: 'door_error', method, message: (err as Error)?.message ?? String(err) });
  return internalError();
}

/** Methods whose answer is an HTTP stream, or that act once their HTTP answer has left. */
const HTTP_ONLY = new Set(['SendStreamingMessage', 'SubscribeToTask', 'murmur.WatchSession', 'murmur.EndSession']);

const tables = new WeakMap<Session, { table: MethodTable; served: Map<string, MethodHandler> }>();

function servedOf(session: Session) {
  let t = tables.get(session);
  if (!t) {
    const table = servedPart(doorMethods, session.manifest.exports?.methods);
    // A Map, so a method named like an Object property (toString, __proto__) finds nothing.
    tables.set(session, (t = { table, served: new Map(Object.entries(table)) }));
  }
  return t;
}

/** The methods a session's door serves by default: doorMethods, narrowed by exports.methods (once per session). */
export const tableOf = (session: Session): MethodTable => servedOf(session).table;

/**
 * Calls one of a session's door methods in process: resolves with the `result` the door would
 * send, rejects with the A2AError it would send as `error`. No HTTP, no connection, no JSON: the
 * Studio reaches the sessions it hosts this way. Methods that answer with a stream, or act once
 * their HTTP answer has left (murmur.EndSession), are refused: they need the HTTP door. `headers`
 * are the request headers the methods read (traceparent; the peer header never comes this way).
 */
export async function callSession(
  session: Session,
  method: string,
  params?: unknown,
  headers: IncomingHttpHeaders = {},
): Promise<unknown> {
  const bad = paramsProblem(params);
  if (bad) throw bad;
  return callChecked(session, method, params, headers);
}

/** callSession for params already checked with paramsProblem (the gateway checked the whole request). */
export async function callChecked(
  session: Session,
  method: string,
  params: unknown,
  headers: IncomingHttpHeaders,
): Promise<unknown> {
  const handler = servedOf(session).served.get(method);
  if (!handler) throw methodNotFound(method);
  // Refused before the handler runs: a streaming send would accept its task first.
  if (HTTP_ONLY.has(method))
    throw unsupportedOperation(
      `${method} is answered over HTTP only (a stream, or an answer that must leave before it acts)`,
    );
  try {
    return await handler({ session, methods: servedOf(session).table, params, id: null, headers });
  } catch (err) {
    throw failureOf(session, method, err);
  }
}
