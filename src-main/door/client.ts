import { z } from 'zod';
import type { Message, StreamResponse, Task } from '../../src-shared/a2a';
import { parseResidueList, residueOfTask, type ResidueItem } from '../../src-shared/residue';
import {
  decodeAnswer,
  MAX_ANSWER_BYTES,
  readBounded,
  requestBody,
  sendResultShape,
  shapedAs,
  taskPageShape,
  taskShape,
} from '../peer/jsonrpc';
import { readSse } from './stream/sse-reader';

// The JSON-RPC client the CLI and the Studio's core use to reach a session's door, as any A2A
// client would, over the wire shared with the peer client (peer/jsonrpc.ts). It is not the peer
// client: that one speaks for a capsule (network policy, peer header, trace); this one speaks for
// the person at the terminal or in the Studio. Every answer is
// checked before it is believed, and one error type says what went wrong:
//  - `unreachable`: nothing answered (refused, timed out);
//  - `bad_answer`: something answered, but not JSON-RPC;
//  - `rpc`: the door answered with a JSON-RPC error (`code`, `data` as it sent them).

export type DoorErrorKind = 'unreachable' | 'bad_answer' | 'rpc';

export class DoorError extends Error {
  override readonly name = 'DoorError';
  constructor(
    readonly kind: DoorErrorKind,
    message: string,
    readonly url: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
  /** The ErrorInfo metadata of an A2A error (e.g. the state of a task that cannot be canceled). */
  get metadata(): Record<string, string> {
    const info = Array.isArray(this.data)
      ? this.data.find((d) => d && typeof d === 'object' && 'metadata' in d)
      : undefined;
    const metadata = (info as { metadata?: unknown } | undefined)?.metadata;
    return metadata && typeof metadata === 'object' ? (metadata as Record<string, string>) : {};
  }
}

export interface DoorCallOptions {
  signal?: AbortSignal;
  /** Per call (default 10 s; a blocking SendMessage passes its own); for a stream, the wait for it to begin. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

const headers = { 'content-type': 'application/json', 'a2a-version': '1.0' };

function signalOf(opts: DoorCallOptions): AbortSignal | undefined {
  if (opts.timeoutMs === 0) return opts.signal;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
}

/**
 * Posts one request. A stream's answer may last as long as its session, so its timeout covers only
 * the wait for that answer to begin (a door opens a stream at once): a door whose process hangs, or
 * a port that now belongs to something that takes connections and never answers, is reported.
 */
async function post(
  url: string,
  method: string,
  params: unknown,
  opts: DoorCallOptions,
  extra: Record<string, string> = {},
  untilAnswered = false,
): Promise<Response> {
  const begun = new AbortController();
  const ms = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = untilAnswered && ms > 0 ? setTimeout(() => begun.abort(), ms) : undefined;
  const signal = timer ? (opts.signal ? AbortSignal.any([opts.signal, begun.signal]) : begun.signal) : signalOf(opts);
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { ...headers, ...extra },
      body: requestBody(method, params),
      signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted');
    const e = err as Error & { cause?: { code?: string } };
    const why = e.name === 'TimeoutError' || begun.signal.aborted ? 'timed out' : (e.cause?.code ?? e.message);
    throw new DoorError('unreachable', `the door at ${url} does not answer (${why})`, url);
  } finally {
    clearTimeout(timer);
  }
}

function decode(url: string, status: number, text: string): unknown {
  const answer = decodeAnswer(text);
  if (answer.ok) return answer.result;
  if ('error' in answer)
    throw new DoorError(
      'rpc',
      `${answer.error.message} (${answer.error.code})`,
      url,
      answer.error.code,
      answer.error.data,
    );
  throw new DoorError(
    'bad_answer',
    answer.notRpc === 'not_json'
      ? `the door at ${url} answered HTTP ${status} without JSON-RPC`
      : `the door at ${url} answered HTTP ${status} with something that is not JSON-RPC 2.0`,
    url,
  );
}

/** One JSON-RPC call; resolves with `result`, throws DoorError. */
export async function callDoor(
  url: string,
  method: string,
  params: unknown,
  opts: DoorCallOptions = {},
): Promise<unknown> {
  const res = await post(url, method, params, opts);
  return decode(url, res.status, await readAnswer(url, res));
}

/** The answer's body as text, refused past MAX_ANSWER_BYTES whether or not it said its length. */
const readAnswer = (url: string, res: Response): Promise<string> =>
  readBounded(res, {
    tooBig: () => new DoorError('bad_answer', `the door at ${url} answered more than ${MAX_ANSWER_BYTES} bytes`, url),
    broken: (err) => new DoorError('unreachable', `the door at ${url} broke off its answer (${err.message})`, url),
  });

const stopShape = z.looseObject({
  session_id: z.string(),
  canceled: z.array(z.string()).max(100_000),
  residue: z.unknown(),
});

function shaped<T>(schema: z.ZodType, value: unknown, url: string, what: string): T {
  const r = shapedAs<T>(schema, value);
  if (r === undefined)
    throw new DoorError('bad_answer', `the door at ${url} answered ${what} in an unexpected shape`, url);
  return r;
}

export interface SendParams {
  message: Message;
  configuration?: { returnImmediately?: boolean; historyLength?: number };
}

/** What murmur.StopSession (and murmur.EndSession) answer. */
export interface StopAnswer {
  session_id: string;
  canceled: string[];
  residue: ResidueItem[];
}

export const door = {
  async sendMessage(
    url: string,
    params: SendParams,
    opts?: DoorCallOptions,
  ): Promise<{ task?: Task; message?: Message }> {
    return shaped(sendResultShape, await callDoor(url, 'SendMessage', params, opts), url, 'SendMessage');
  },
  async getTask(url: string, id: string, historyLength?: number, opts?: DoorCallOptions): Promise<Task> {
    return shaped(
      taskShape,
      await callDoor(url, 'GetTask', { id, ...(historyLength !== undefined ? { historyLength } : {}) }, opts),
      url,
      'GetTask',
    );
  },
  async listTasks(url: string, pageSize = 100, opts?: DoorCallOptions): Promise<Task[]> {
    const answer = shaped<{ tasks?: Task[] }>(
      taskPageShape,
      await callDoor(url, 'ListTasks', { pageSize }, opts),
      url,
      'ListTasks',
    );
    return answer.tasks ?? [];
  },
  /** One ListTasks page (newest first) and the token of the next ("" on the last). */
  async listTaskPage(
    url: string,
    params: { pageSize?: number; pageToken?: string; includeArtifacts?: boolean; historyLength?: number },
    opts?: DoorCallOptions,
  ): Promise<{ tasks: Task[]; nextPageToken: string }> {
    const answer = shaped<{ tasks?: Task[]; nextPageToken?: string }>(
      taskPageShape,
      await callDoor(url, 'ListTasks', params, opts),
      url,
      'ListTasks',
    );
    return { tasks: answer.tasks ?? [], nextPageToken: answer.nextPageToken ?? '' };
  },
  /** CancelTask: the canceled task and its residue. A task that already ended throws DoorError code -32002. */
  async cancelTask(url: string, id: string, opts?: DoorCallOptions): Promise<{ task: Task; residue: ResidueItem[] }> {
    const task = shaped<Task>(taskShape, await callDoor(url, 'CancelTask', { id }, opts), url, 'CancelTask');
    return { task, residue: residueOfTask(task) };
  },
  /** murmur.StopSession: cancels every task; the session keeps running. */
  async stopSession(url: string, opts?: DoorCallOptions): Promise<StopAnswer> {
    return stopAnswer(url, await callDoor(url, 'murmur.StopSession', {}, opts), 'murmur.StopSession');
  },
  /** murmur.EndSession: cancels every task, answers, then ends the session (its door closes). */
  async endSession(url: string, opts?: DoorCallOptions): Promise<StopAnswer> {
    return stopAnswer(url, await callDoor(url, 'murmur.EndSession', {}, opts), 'murmur.EndSession');
  },
  /** SendStreamingMessage: each event as the door sends it, until the stream closes. */
  async *streamMessage(url: string, params: SendParams, opts: StreamOptions = {}): AsyncGenerator<StreamResponse> {
    for await (const result of stream(url, 'SendStreamingMessage', params, opts))
      if (result && typeof result === 'object') yield result as StreamResponse;
  },
  /** murmur.WatchSession: the session's trace events, each with its line number, until the session ends. */
  async *watchSession(
    url: string,
    from: 'now' | 'start' | number,
    opts: StreamOptions = {},
  ): AsyncGenerator<{ seq: number; event: { event_type: string } & Record<string, unknown> }> {
    for await (const result of stream(url, 'murmur.WatchSession', { from }, opts))
      if (result && typeof result === 'object') yield result as never;
  },
};

export type StreamOptions = DoorCallOptions & { extensions?: string };

/**
 * A streaming method: each event's result as it comes. A door that cannot be reached, is closing or
 * is past its connection cap (HTTP 503), throws `unreachable`; one that answers with an error instead of a stream throws that
 * error; a stream that breaks off later throws whatever broke it (the caller decides what it means).
 */
async function* stream(url: string, method: string, params: unknown, opts: StreamOptions): AsyncGenerator<unknown> {
  const res = await post(
    url,
    method,
    params,
    opts,
    { accept: 'text/event-stream', ...(opts.extensions ? { 'a2a-extensions': opts.extensions } : {}) },
    true,
  );
  if (res.status === 503) {
    await res.body?.cancel().catch(() => undefined);
    throw new DoorError('unreachable', `the door at ${url} is closing or busy (HTTP 503)`, url);
  }
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    decode(url, res.status, await readAnswer(url, res));
    throw new DoorError('bad_answer', `the door at ${url} answered ${method} without a stream`, url);
  }
  if (!res.body) return;
  for await (const event of readSse(res.body as AsyncIterable<Uint8Array>)) yield decode(url, res.status, event.data);
}

function stopAnswer(url: string, value: unknown, method: string): StopAnswer {
  const answer = shaped<{ session_id: string; canceled: string[]; residue: unknown }>(stopShape, value, url, method);
  return { session_id: answer.session_id, canceled: answer.canceled, residue: parseResidueList(answer.residue) };
}
