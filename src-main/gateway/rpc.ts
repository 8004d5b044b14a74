import type { FastifyReply, FastifyRequest } from 'fastify';
import { A2AError, methodNotFound, type JsonRpcId } from '../../src-shared/a2a';
import { busyBody, checkAccepts, DOOR_BUSY_CODE } from '../door';
import { decodeAnswer, requestOf } from '../peer';
import type { Session } from '../runtime/api';
import { card03 } from './cards';
import { envelopeTo03, EXTENDED_CARD_03, is03Method, METHODS_03, paramsTo10 } from './compat03';
import { answerHeaders, doorHeaders, forwardToDoor } from './forward';
import { answerInProcess, takeSlot } from './in-process';
import { pipeSse } from './sse-pipe';
import type { ExposureInfo } from './exposures';
import type { ResolvedCapsule } from './types';

// One external JSON-RPC call: refusals the gateway owns (door extension methods, the `accepts`
// contract, 0.3 translation), then the answer. A session of this process answers in process
// (in-process.ts) every call that does not stream; a stream, or a capsule whose door runs in
// another process, goes to the door over loopback HTTP, its answer passed back and an SSE stream
// piped through.

export interface RpcCall {
  req: FastifyRequest;
  reply: FastifyReply;
  exposure: ExposureInfo;
  capsule: ResolvedCapsule;
  /** The capsule's card as the gateway serves it (for the 0.3 extended card). */
  card: () => Promise<import('../../src-shared/a2a').AgentCard>;
  url: string;
  /** Registers a stream so a revocation can end it; returns the unregister function. */
  track(close: () => void): () => void;
  /** Calls a session of this process answers at once through the gateway (its door's connection cap). */
  maxCalls: number;
}

export interface RpcOutcome {
  method: string;
  status: number;
  outcome: string;
  /** Resolves when a stream ends (outcome 'stream' or 'revoked'). */
  done?: Promise<string>;
}

/** The task a call names (in its 1.0 form), which decides the session it goes to. */
function taskIdOf(method: string, params: any): string | undefined {
  if (!params || typeof params !== 'object') return undefined;
  const id =
    method === 'GetTask' || method === 'CancelTask' || method === 'SubscribeToTask'
      ? params.id
      : method.endsWith('TaskPushNotificationConfig') || method === 'ListTaskPushNotificationConfigs'
        ? params.taskId
        : method === 'SendMessage' || method === 'SendStreamingMessage'
          ? params.message?.taskId
          : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= 256 ? id : undefined;
}

const STREAMING = new Set(['SendStreamingMessage', 'SubscribeToTask', 'message/stream', 'tasks/resubscribe']);

const sendJson = (reply: FastifyReply, body: unknown, headers: Record<string, string> = {}) =>
  reply.code(200).headers(headers).header('content-type', 'application/json').send(JSON.stringify(body));

const errorOut = (reply: FastifyReply, id: JsonRpcId, method: string, err: A2AError): RpcOutcome => {
  sendJson(reply, { jsonrpc: '2.0', id, error: err.toJSON() });
  return { method, status: 200, outcome: `error ${err.code}` };
};

const didNotAnswer = () => new A2AError(-32603, 'The capsule did not answer (is it still running?)');

export async function handleRpc(call: RpcCall): Promise<RpcOutcome> {
  const { req, reply, exposure, capsule } = call;
  const raw = typeof req.body === 'string' ? req.body : '';
  let parsed: { value: unknown } | undefined;
  try {
    parsed = { value: JSON.parse(raw) };
  } catch {}
  const env = parsed ? requestOf(parsed.value) : undefined;
  const method = env?.method ?? '(unreadable)';
  let body = raw;
  let version: string | undefined;
  let holder: Session | undefined;
  const compat = !!env && exposure.compat03 && is03Method(method);
  if (env) {
    // The door's own extension methods (StopSession, WatchSession) act on the whole session:
    // they stay with the Studio and are never reachable from outside.
    if (method.startsWith('murmur.')) return errorOut(reply, env.id, method, methodNotFound(method));
    try {
      // The door's own card names its loopback address and its extension methods: callers get the gateway's.
      if (method === 'GetExtendedAgentCard') {
        sendJson(reply, { jsonrpc: '2.0', id: env.id, result: await call.card() });
        return { method, status: 200, outcome: 'ok' };
      }
      if (compat && method === EXTENDED_CARD_03) {
        sendJson(reply, { jsonrpc: '2.0', id: env.id, result: card03(await call.card(), call.url) });
        return { method, status: 200, outcome: 'ok' };
      }
      const method10 = compat ? METHODS_03[method] : method;
      const params = compat ? paramsTo10(method, env.params ?? {}) : env.params;
      if (
        (method10 === 'SendMessage' || method10 === 'SendStreamingMessage') &&
        Array.isArray(params?.message?.parts)
      ) {
        checkAccepts(capsule.accepts, params.message);
      }
      const taskId = taskIdOf(method10, params);
      holder = taskId ? capsule.sessionOf?.(taskId) : undefined;
      if (compat) {
        body = JSON.stringify({ jsonrpc: '2.0', id: env.id, method: method10, params });
        version = '1.0';
      }
    } catch (err) {
      if (err instanceof A2AError) return errorOut(reply, env.id, method, err);
      throw err;
    }
  }
  const query = (req.query ?? {}) as Record<string, unknown>;
  const session = holder ?? capsule.session;
  if (session && !STREAMING.has(method)) {
    const headers = doorHeaders(req.headers, query, version);
    return inProcess(call, method, env?.id ?? null, session, () =>
      answerInProcess({
        session,
        headers,
        body,
        parsed: compat ? undefined : parsed,
        method03: compat ? method : undefined,
      }),
    );
  }
  return forwarded(call, method, env?.id ?? null, compat, {
    doorUrl: holder?.url ?? capsule.url,
    body,
    query,
    version,
  });
}

/**
 * Sends the in-process answer. A caller that goes away first is logged as it was when the call went
 * to the door (-32603): the session's work goes on, as the door's does for a caller that left.
 */
async function inProcess(
  call: RpcCall,
  method: string,
  id: JsonRpcId,
  session: Session,
  answer: () => Promise<{ text: string; error?: A2AError }>,
): Promise<RpcOutcome> {
  const { reply } = call;
  // An ended session's door is closed: the caller learns what it would have from the door.
  if (session.status().state === 'ended') return errorOut(reply, id, method, didNotAnswer());
  const release = takeSlot(session, call.maxCalls);
  if (!release) {
    reply.code(503).headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
    reply.send(busyBody(call.maxCalls));
    return { method, status: 503, outcome: `error ${DOOR_BUSY_CODE}` };
  }
  let onClose = () => undefined as void;
  const gone = new Promise<undefined>((resolve) => {
    onClose = () => {
      if (!reply.raw.writableFinished) resolve(undefined);
    };
    reply.raw.on('close', onClose);
  });
  const out = await Promise.race([answer(), gone]).finally(() => {
    reply.raw.off('close', onClose);
    release();
  });
  if (!out) return errorOut(reply, id, method, didNotAnswer());
  reply.code(200).header('content-type', 'application/json').send(out.text);
  return { method, status: 200, outcome: out.error ? `error ${out.error.code}` : 'ok' };
}

/** Forwards the call to the capsule's door over loopback HTTP and passes its answer (or stream) back. */
async function forwarded(
  call: RpcCall,
  method: string,
  id: JsonRpcId,
  compat: boolean,
  to: { doorUrl: string; body: string; query: Record<string, unknown>; version?: string },
): Promise<RpcOutcome> {
  const { req, reply } = call;
  const abort = new AbortController();
  // The caller went away before the answer was complete: stop the door's work on this request.
  const onClose = () => {
    if (!reply.raw.writableFinished) abort.abort();
  };
  reply.raw.on('close', onClose);
  let res: Response;
  try {
    res = await forwardToDoor({ ...to, headers: req.headers, signal: abort.signal });
  } catch {
    reply.raw.off('close', onClose);
    return errorOut(reply, id, method, didNotAnswer());
  }
  const headers = answerHeaders(res);
  if ((headers['content-type'] ?? '').startsWith('text/event-stream') && res.body) {
    const done = pipeSse({
      res,
      reply,
      headers,
      abort,
      translate: compat ? (e) => envelopeTo03(e, method) : undefined,
      track: call.track,
    });
    return { method, status: res.status, outcome: 'stream', done: done.finally(() => reply.raw.off('close', onClose)) };
  }
  reply.raw.off('close', onClose);
  const text = await res.text();
  let outcome = res.ok ? 'ok' : `http ${res.status}`;
  let out = text;
  const answer = decodeAnswer(text);
  if (!answer.ok && 'error' in answer) outcome = `error ${answer.error.code}`;
  if (compat && !(!answer.ok && 'notRpc' in answer)) out = JSON.stringify(envelopeTo03(JSON.parse(text), method));
  if (STREAMING.has(method) && outcome === 'ok') outcome = 'stream';
  reply.code(res.status).headers(headers).send(out);
  return { method, status: res.status, outcome };
}
