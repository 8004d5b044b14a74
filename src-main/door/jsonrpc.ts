import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  A2AError,
  contentTypeNotSupported,
  invalidRequest,
  methodNotFound,
  parseError,
  PEER_HEADER,
  versionNotSupported,
  type JsonRpcId,
} from '../../src-shared/a2a';
import type { Session } from '../runtime/api';
import { failureOf, paramsProblem } from './call';
import { REPLIED, type MethodHandler, type MethodTable } from './methods';

// JSON-RPC 2.0 at POST / (and its trailing-slash variant). Every error goes out as a JSON-RPC
// error with HTTP 200, except the peer refusal (403). Bad input never takes the door down.

export const BODY_LIMIT = 1024 * 1024;

const isJsonType = (ct: string) => {
  const type = ct.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
};

export function sendError(reply: FastifyReply, id: JsonRpcId, err: A2AError, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', id, error: err.toJSON() }));
}

/** `1.0` or `1.0.x` (patch ignored); anything else, or nothing (read as 0.3), is refused. */
function versionOf(req: FastifyRequest): string | undefined {
  const h = req.headers['a2a-version'];
  const q = (req.query as Record<string, unknown> | undefined)?.['A2A-Version'];
  const v = (Array.isArray(h) ? h[0] : h) ?? (typeof q === 'string' ? q : undefined);
  return v?.trim() || undefined;
}
const supported = (v: string | undefined) => v !== undefined && /^1\.0(\.\d+)?$/.test(v);

const peerRefusal = (name: string) =>
  new A2AError(
    -32010,
    `peer_not_accepted: this capsule (${name}) does not take tasks from other capsules (exports.peer_tasks.accept is not true)`,
    [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'PEER_NOT_ACCEPTED',
        domain: 'capsule.studio',
        metadata: { capsule: name },
      },
    ],
  );

export const jsonRpcPlugin: FastifyPluginAsync<{ session: Session; methods: MethodTable }> = async (
  app,
  { session, methods },
) => {
  // A Map, so a method named like an Object property (toString, __proto__) finds nothing.
  const served = new Map<string, MethodHandler>(Object.entries(methods));
  app.removeAllContentTypeParsers();
  // Bodies arrive as strings: the handler parses them so that every failure is a JSON-RPC error.
  const asString = (_req: unknown, body: string | Buffer, done: (err: null, body: string | Buffer) => void) =>
    done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, asString);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, asString);
  app.setErrorHandler((err: { code?: string; message: string }, _req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(
        reply,
        null,
        invalidRequest(`Request body too large: the door takes at most 1 MiB (${BODY_LIMIT} bytes)`),
      );
    }
    return sendError(reply, null, invalidRequest(`Bad request: ${err.message}`));
  });
  // Read at each request: a running session's peer export can change (Session.updatePolicy).
  const acceptPeers = () => session.manifest.exports?.peer_tasks?.accept === true;

  /** A handler's result goes out as the JSON-RPC result (REPLIED: the handler answered itself). */
  const answer = (reply: FastifyReply, id: JsonRpcId, method: string, result: unknown): void => {
    if (result === REPLIED) return;
    let json: string;
    try {
      json = JSON.stringify({ jsonrpc: '2.0', id, result });
    } catch (err) {
      return failed(reply, id, method, err);
    }
    reply.header('content-type', 'application/json').send(json);
  };
  const failed = (reply: FastifyReply, id: JsonRpcId, method: string, err: unknown): void =>
    void sendError(reply, id, failureOf(session, method, err));

  // Not an async function: a handler that answers at once costs no promise, one that waits costs
  // one continuation (the async context makes every promise of a request cost hook calls).
  const handle = (request: FastifyRequest, reply: FastifyReply): void => {
    const ct = request.headers['content-type'] ?? '';
    if (!isJsonType(ct)) return void sendError(reply, null, contentTypeNotSupported(ct));
    let body: unknown;
    try {
      body = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      return void sendError(reply, null, parseError());
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return void sendError(
        reply,
        null,
        invalidRequest('Request payload validation error: expected one JSON-RPC request object'),
      );
    const env = body as Record<string, unknown>;
    const rawId = env.id;
    const idOk = rawId === undefined || rawId === null || typeof rawId === 'string' || typeof rawId === 'number';
    const id = (idOk ? (rawId ?? null) : null) as JsonRpcId;
    if (env.jsonrpc !== '2.0' || typeof env.method !== 'string' || !idOk) {
      return void sendError(
        reply,
        id,
        invalidRequest(
          'Request payload validation error: needs jsonrpc "2.0", a string method and a string, number or null id',
        ),
      );
    }
    const bad = paramsProblem(env.params);
    if (bad) return void sendError(reply, id, bad);
    const version = versionOf(request);
    if (!supported(version)) return void sendError(reply, id, versionNotSupported(version));
    if (!acceptPeers() && request.headers[PEER_HEADER] !== undefined)
      return void sendError(reply, id, peerRefusal(session.manifest.name), 403);
    const method = env.method;
    const handler = served.get(method);
    if (!handler) return void sendError(reply, id, methodNotFound(method));
    let result: unknown;
    try {
      result = handler({ session, methods, params: env.params, id, request, reply, headers: request.headers });
    } catch (err) {
      return failed(reply, id, method, err);
    }
    if (result instanceof Promise) {
      result.then(
        (r: unknown) => answer(reply, id, method, r),
        (err: unknown) => failed(reply, id, method, err),
      );
    } else answer(reply, id, method, result);
  };
  app.post('/', handle);
};
