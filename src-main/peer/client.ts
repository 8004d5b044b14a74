import { z } from 'zod';
import { PEER_HEADER, type AgentCard, type Message, type Task } from '../../src-shared/a2a';
import { PeerError, PolicyRefusal } from './errors';
import { checkTarget, type PolicyVerdict } from './policy';
import { fetchGuarded } from './guarded-fetch';
import { decodeAnswer, readBounded, requestBody, sendResultShape, shapedAs, taskShape } from './jsonrpc';
import { dialectOfCard, METHODS_TO_03, paramsTo03, resultTo10, type Dialect } from './v03';

// The one outgoing A2A client every capsule uses on a model's behalf. Every place it is about to
// reach — the first URL and every redirect hop — is checked against capabilities.network.allow
// before fetch is called, so a refused place never sees a TCP packet. Redirects are followed by
// hand for that reason (fetch's own following would connect first and ask later).
//
// It speaks A2A 1.0. A peer that answers a 1.0 method with "method not found" (or "version not
// supported") has its card read: when the card offers only 0.3, the call is made again in 0.3
// (v03.ts) and the rest of this client's calls to that URL speak 0.3; otherwise the error says
// what the card said, so a model and a user see why.

type TraceFn = (event: { event_type: string } & Record<string, unknown>) => void;

export interface PeerClientOptions {
  /** The capsule making the requests; named in the peer header. */
  capsule: string;
  sessionId: string;
  /** capabilities.network.allow of the capsule. */
  allow: readonly string[];
  /** The session trace (network_refused, a2a_send). */
  trace?: TraceFn;
  /** Per request, redirects included (default 30 s). */
  timeoutMs?: number;
  maxRedirects?: number;
}

export interface PeerCallOptions {
  /** W3C traceparent linking the peer's task to the task that caused it. */
  traceparent?: string;
  signal?: AbortSignal;
  /** Exact places the runtime itself opened for this call (a sub-capsule's own door). */
  extraAllow?: readonly string[];
}

export interface SendMessageParams {
  message: Message;
  configuration?: { returnImmediately?: boolean; historyLength?: number; acceptedOutputModes?: string[] };
  metadata?: Record<string, unknown>;
}

export type SendMessageResult = { task: Task; message?: undefined } | { message: Message; task?: undefined };

export interface PeerClient {
  sendMessage(url: string, params: SendMessageParams, opts?: PeerCallOptions): Promise<SendMessageResult>;
  getTask(url: string, id: string, opts?: PeerCallOptions & { historyLength?: number }): Promise<Task>;
  cancelTask(url: string, id: string, opts?: PeerCallOptions): Promise<Task>;
  /** The agent card: the URL itself when it names a card, else `<origin>/.well-known/agent-card.json`. */
  fetchCard(url: string, opts?: PeerCallOptions): Promise<AgentCard>;
}

const cardShape = z.looseObject({
  name: z.string(),
  version: z.string().optional(),
  supportedInterfaces: z.array(z.unknown()).optional(),
});

export function createPeerClient(opts: PeerClientOptions): PeerClient {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxRedirects = opts.maxRedirects ?? 5;

  const dialects = new Map<string, Dialect>(); // by peer URL, once its card was read

  const headers = (call: PeerCallOptions, json: boolean, dialect: Dialect = '1.0'): Record<string, string> => ({
    accept: 'application/json',
    // 0.3 had no version header: a server that speaks both reads a missing one as 0.3.
    ...(dialect === '1.0' ? { 'a2a-version': '1.0' } : {}),
    [PEER_HEADER]: `${opts.capsule}; session=${opts.sessionId}`,
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(call.traceparent ? { traceparent: call.traceparent } : {}),
  });

  /** Checks a place against the policy; a refusal is traced and thrown before any connection. */
  const allowOrThrow = (url: string, call: PeerCallOptions): Extract<PolicyVerdict, { ok: true }> => {
    const verdict = checkTarget(url, opts.allow, call.extraAllow);
    if (verdict.ok) return verdict;
    opts.trace?.({ event_type: 'network_refused', url, reason: verdict.reason });
    throw new PolicyRefusal(url, verdict.reason);
  };

  /** One request, following redirects by hand; every hop passes the policy first. */
  function request(
    url: string,
    init: { method: string; body?: string },
    call: PeerCallOptions,
    dialect?: Dialect,
  ): Promise<Response> {
    const signal = call.signal
      ? AbortSignal.any([call.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    return fetchGuarded(
      url,
      { ...init, headers: headers(call, init.body !== undefined, dialect), signal },
      {
        allowOrThrow: (place) => allowOrThrow(place, call),
        maxRedirects,
        networkError: (place, err) => networkError(place, err, call.signal),
        redirectError: (kind, place, status) =>
          kind === 'no_location'
            ? new PeerError('bad_response', `${place} answered ${status} without a Location`, { url: place, status })
            : new PeerError('too_many_redirects', `more than ${maxRedirects} redirects from ${place}`, { url: place }),
      },
    );
  }

  async function rpc(
    url: string,
    method: string,
    params: unknown,
    call: PeerCallOptions = {},
    dialect?: Dialect,
  ): Promise<unknown> {
    const res = await request(url, { method: 'POST', body: requestBody(method, params) }, call, dialect);
    // A peer is anyone the allow list names: its answer is read up to a bound, never whole.
    const text = await readBounded(res, {
      tooBig: () =>
        new PeerError('bad_response', `${url} answered more than the bytes a peer may send`, {
          url,
          status: res.status,
        }),
      broken: (err) => networkError(url, err, call.signal),
    });
    const answer = decodeAnswer(text);
    if (!answer.ok && 'notRpc' in answer) {
      if (answer.notRpc === 'not_json')
        throw new PeerError('http_error', `${url} answered HTTP ${res.status} with no JSON-RPC body`, {
          url,
          status: res.status,
        });
      throw new PeerError('bad_response', `${url} answered something that is not JSON-RPC 2.0`, {
        url,
        status: res.status,
      });
    }
    if (!answer.ok) {
      const { error } = answer;
      const detail = { url, status: res.status, code: error.code, data: error.data };
      if (res.status === 403 && error.message.startsWith('peer_not_accepted')) {
        throw new PeerError(
          'peer_not_accepted',
          `${url} does not take tasks from other capsules (${error.message})`,
          detail,
        );
      }
      throw new PeerError('rpc_error', `${method} failed at ${url}: ${error.code} ${error.message}`, detail);
    }
    if (!res.ok) throw new PeerError('http_error', `${url} answered HTTP ${res.status}`, { url, status: res.status });
    return answer.result;
  }

  const call03 = async (url: string, method: string, params: Record<string, any>, call: PeerCallOptions) =>
    resultTo10(method, await rpc(url, METHODS_TO_03[method], paramsTo03(method, params), call, '0.3'));

  /** A 1.0 method call, in 0.3 to a peer whose card offers only 0.3 (see the top of this file). */
  async function rpc10(
    url: string,
    method: string,
    params: Record<string, any>,
    call: PeerCallOptions,
  ): Promise<unknown> {
    if (dialects.get(url) === '0.3') return call03(url, method, params, call);
    try {
      return await rpc(url, method, params, call);
    } catch (err) {
      const code = err instanceof PeerError && err.reason === 'rpc_error' ? err.detail.code : undefined;
      if ((code !== -32601 && code !== -32009) || dialects.has(url)) throw err;
      const card = await readCardQuietly(url, call);
      dialects.set(url, card.dialect ?? '1.0');
      if (card.dialect === '0.3') return call03(url, method, params, call);
      throw new PeerError('rpc_error', `${(err as Error).message} (${card.note})`, (err as PeerError).detail);
    }
  }

  /** The peer's protocol from its card, without tracing a refusal: the model did not ask for the card. */
  async function readCardQuietly(url: string, call: PeerCallOptions): Promise<{ dialect?: Dialect; note: string }> {
    const dir = url.endsWith('/') ? url : `${url}/`;
    const places = [
      ...new Set([new URL('.well-known/agent-card.json', dir).href, new URL('/.well-known/agent-card.json', url).href]),
    ];
    let why = 'its card is not in capabilities.network.allow';
    for (const place of places) {
      if (!checkTarget(place, opts.allow, call.extraAllow).ok) continue;
      try {
        const { dialect, version } = dialectOfCard(await fetchCardAt(place, call));
        return {
          dialect,
          note: `its card at ${place} says protocol version ${version || '(none)'}${dialect === '1.0' ? ', yet the method is missing' : ''}`,
        };
      } catch (e) {
        why = `its card could not be read: ${(e as Error).message}`;
      }
    }
    return { note: `the peer may speak only A2A 0.3 (message/send, tasks/get); ${why}` };
  }

  async function fetchCardAt(cardUrl: string, call: PeerCallOptions): Promise<AgentCard> {
    const res = await request(cardUrl, { method: 'GET' }, call);
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new PeerError('http_error', `${cardUrl} answered HTTP ${res.status}`, { url: cardUrl, status: res.status });
    }
    const json = await res.json().catch(() => undefined);
    return parse<AgentCard>(cardShape, json, cardUrl, 'its agent card');
  }

  const parse = <T>(schema: z.ZodType, value: unknown, url: string, what: string): T => {
    const r = shapedAs<T>(schema, value);
    if (r === undefined) throw new PeerError('bad_response', `${url} answered ${what} in an unexpected shape`, { url });
    return r;
  };

  return {
    async sendMessage(url, params, call = {}) {
      const result = parse<SendMessageResult>(
        sendResultShape,
        await rpc10(url, 'SendMessage', params as unknown as Record<string, unknown>, call),
        url,
        'SendMessage',
      );
      const peerTaskId = result.task?.id ?? '';
      // The session trace stamps task lines with its own task id, so the peer's also goes in
      // peer_task_id (task_id is the peer's only where the trace is written without a task).
      opts.trace?.({
        event_type: 'a2a_send',
        peer_url: url,
        message_id: params.message.messageId,
        task_id: peerTaskId,
        peer_task_id: peerTaskId,
        context_id: result.task?.contextId ?? result.message?.contextId ?? params.message.contextId ?? '',
        ...(dialects.get(url) === '0.3' ? { protocol_version: '0.3' } : {}),
        ...(call.traceparent ? { traceparent: call.traceparent } : {}),
      });
      return result;
    },
    async getTask(url, id, call = {}) {
      const params = call.historyLength === undefined ? { id } : { id, historyLength: call.historyLength };
      return parse<Task>(taskShape, await rpc10(url, 'GetTask', params, call), url, 'GetTask');
    },
    async cancelTask(url, id, call = {}) {
      return parse<Task>(taskShape, await rpc10(url, 'CancelTask', { id }, call), url, 'CancelTask');
    },
    async fetchCard(url, call = {}) {
      const cardUrl = /\/agent(-card)?\.json$/.test(new URL(url).pathname)
        ? url
        : new URL('/.well-known/agent-card.json', url).href;
      return fetchCardAt(cardUrl, call);
    },
  };
}

/** Turns a fetch failure into words: connection refused, unreachable, timeout, or the caller's abort. */
function networkError(url: string, err: unknown, callerSignal?: AbortSignal): Error {
  if (callerSignal?.aborted) return callerSignal.reason instanceof Error ? callerSignal.reason : new Error('aborted');
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return new PeerError('timeout', `${url} did not answer in time`, { url });
  const code = e.cause?.code;
  if (code === 'ECONNREFUSED')
    return new PeerError('connection_refused', `${url} is down (connection refused)`, { url });
  return new PeerError(
    'unreachable',
    `${url} is not reachable (${code ?? e.cause?.message ?? e.message ?? 'network error'})`,
    { url },
  );
}
