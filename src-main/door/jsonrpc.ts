import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  A2AError,
  contentTypeNotSupported,
  internalError,
  invalidRequest,
  methodNotFound,
  parseError,
  PEER_HEADER,
  versionNotSupported,
  type JsonRpcId,
} from '../../src-shared/a2a';
import type { Session } from '../runtime/api';
import { REPLIED, type MethodHandler, type MethodTable } from './methods';

// JSON-RPC 2.0 at POST / (and its trailing-slash variant). Every error goes out as a JSON-RPC
// error with HTTP 200, except the peer refusal (403). Bad input never takes the door down.

export const BODY_LIMIT = 1024 * 1024;

const isJsonType = (ct: string) => {
  const type = ct.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
};

export function sendError(reply: FastifyReply, id: JsonRpcId, err: A2AError, status = 200): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(JSON.stringify({ jsonrpc: '2.0', id, error: err.toJSON() }));
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
  new A2AError(-32010, `peer_not_accepted: this capsule (${name}) does not take tasks from other capsules (exports.peer_tasks.accept is not true)`, [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'PEER_NOT_ACCEPTED', domain: 'capsule.studio', metadata: { capsule: name } },
  ]);

export const jsonRpcPlugin: FastifyPluginAsync<{ session: Session; methods: MethodTable }> = async (app, { session, methods }) => {
  // A Map, so a method named like an Object property (toString, __proto__) finds nothing.
  const served = new Map<string, MethodHandler>(Object.entries(methods));
  app.removeAllContentTypeParsers();
  // Bodies arrive as strings: the handler parses them so that every failure is a JSON-RPC error.
  const asString = (_req: unknown, body: string | Buffer, done: (err: null, body: string | Buffer) => void) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, asString);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, asString);
  app.setErrorHandler((err: { code?: string; message: string }, _req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, null, invalidRequest(`Request body too large: the door takes at most 1 MiB (${BODY_LIMIT} bytes)`));
    }
    return sendError(reply, null, invalidRequest(`Bad request: ${err.message}`));
  });
  // Read at each request: a running session's peer export can change (Session.updatePolicy).
  const acceptPeers = () => session.manifest.exports?.peer_tasks?.accept === true;

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const ct = request.headers['content-type'] ?? '';
    if (!isJsonType(ct)) return sendError(reply, null, contentTypeNotSupported(ct));
    let body: unknown;
    try {
      body = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      return sendError(reply, null, parseError());
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return sendError(reply, null, invalidRequest('Request payload validation error: expected one JSON-RPC request object'));
    const env = body as Record<string, unknown>;
    const rawId = env.id;
    const idOk = rawId === undefined || rawId === null || typeof rawId === 'string' || typeof rawId === 'number';
    const id = (idOk ? (rawId ?? null) : null) as JsonRpcId;
    if (env.jsonrpc !== '2.0' || typeof env.method !== 'string' || !idOk) {
      return sendError(reply, id, invalidRequest('Request payload validation error: needs jsonrpc "2.0", a string method and a string, number or null id'));
    }
    if (env.params !== undefined && (env.params === null || typeof env.params !== 'object' || Array.isArray(env.params))) {
      return sendError(reply, id, invalidRequest('Request payload validation error: params must be an object'));
    }
    const version = versionOf(request);
    if (!supported(version)) return sendError(reply, id, versionNotSupported(version));
    if (!acceptPeers() && request.headers[PEER_HEADER] !== undefined) return sendError(reply, id, peerRefusal(session.manifest.name), 403);
    const handler = served.get(env.method);
    if (!handler) return sendError(reply, id, methodNotFound(env.method));
    try {
      const result = await handler({ session, methods, params: env.params, id, request, reply, headers: request.headers });
      if (result === REPLIED) return reply;
      return reply.header('content-type', 'application/json').send(JSON.stringify({ jsonrpc: '2.0', id, result }));
    } catch (err) {
      if (err instanceof A2AError) return sendError(reply, id, err);
      session.trace.append({ event_type: 'door_error', method: env.method, message: (err as Error).message ?? String(err) });
      return sendError(reply, id, internalError());
    }
  };
  app.post('/', handle);
};
