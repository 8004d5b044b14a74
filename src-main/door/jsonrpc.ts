import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { A2AError, invalidRequest, methodNotFound, PEER_HEADER, type JsonRpcId } from '../../src-shared/a2a';
import type { Session } from '../runtime/api';
import { failureOf } from './call';
import { BODY_LIMIT, bodyTooLarge, checkRequest, errorText, resultAnswer } from './envelope';
import { REPLIED, type MethodHandler, type MethodTable } from './methods';

// JSON-RPC 2.0 at POST / (and its trailing-slash variant). Every error goes out as a JSON-RPC
// error with HTTP 200, except the peer refusal (403). Bad input never takes the door down. The
// checks of a request and the wording of answers are envelope.ts's (the gateway shares them).

export { BODY_LIMIT } from './envelope';

export function sendError(reply: FastifyReply, id: JsonRpcId, err: A2AError, status = 200): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(errorText(id, err));
}

/** The A2A-Version a caller asked for: the header, else the `A2A-Version` query parameter. */
function versionOf(req: FastifyRequest): string | undefined {
  const h = req.headers['a2a-version'];
  const q = (req.query as Record<string, unknown> | undefined)?.['A2A-Version'];
  return (Array.isArray(h) ? h[0] : h) ?? (typeof q === 'string' ? q : undefined);
}

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
      return sendError(reply, null, bodyTooLarge());
    }
    return sendError(reply, null, invalidRequest(`Bad request: ${err.message}`));
  });
  // Read at each request: a running session's peer export can change (Session.updatePolicy).
  const acceptPeers = () => session.manifest.exports?.peer_tasks?.accept === true;

  /** A handler's result goes out as the JSON-RPC result (REPLIED: the handler answered itself). */
  const answer = (reply: FastifyReply, id: JsonRpcId, method: string, result: unknown): void => {
    if (result === REPLIED) return;
    reply.header('content-type', 'application/json').send(resultAnswer(session, id, method, result).text);
  };
  const failed = (reply: FastifyReply, id: JsonRpcId, method: string, err: unknown): void =>
    void sendError(reply, id, failureOf(session, method, err));

  // Not an async function: a handler that answers at once costs no promise, one that waits costs
  // one continuation (the async context makes every promise of a request cost hook calls).
  const handle = (request: FastifyRequest, reply: FastifyReply): void => {
    const checked = checkRequest(request.headers['content-type'] ?? '', versionOf(request), () =>
      JSON.parse(typeof request.body === 'string' ? request.body : ''),
    );
    if (!checked.ok) return void sendError(reply, checked.id, checked.error);
    const { id, method, params } = checked;
    if (!acceptPeers() && request.headers[PEER_HEADER] !== undefined)
      return void sendError(reply, id, peerRefusal(session.manifest.name), 403);
    const handler = served.get(method);
    if (!handler) return void sendError(reply, id, methodNotFound(method));
    let result: unknown;
    try {
      result = handler({ session, methods, params, id, request, reply, headers: request.headers });
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
