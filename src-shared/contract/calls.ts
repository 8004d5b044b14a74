import { CoreError, type ReplyEnvelope } from './errors';

// The one client of the contract over a socket, shared by the renderer's WebSocket client (the
// web shell) and the link to a runtime on another host: the calls in flight on one connection,
// under one policy. Each transport only opens its socket and hands the table what arrives.
//  - Queueing: a command made while the connection is opening waits for it (at most
//    `connectWaitMs`); one made while the connection is down between tries fails at once, so
//    nothing runs later by surprise.
//  - Bounds: at most `maxPending` commands wait for an answer; one more is refused (limit_reached).
//  - Timeouts: a command that gets no answer within `timeoutMs` fails.
//  - Backoff: a dropped connection is tried again after each of `backoffMs` in turn, the last repeating.
//  - Cancellation: an invoke given an AbortSignal stops waiting when it aborts, and the other end
//    is told (`{type:"cancel", id}`) so the command stops there too.

export interface ContractPolicy {
  maxPending: number;
  timeoutMs: number;
  connectWaitMs: number;
  backoffMs: readonly number[];
}

export const CONTRACT_POLICY: ContractPolicy = {
  maxPending: 1024,
  // A restart "when idle" waits up to 10 minutes for its tasks on the core, and so may a blocking task.send.
  timeoutMs: 11 * 60_000,
  connectWaitMs: 10_000,
  backoffMs: [250, 1000, 2000, 4000, 8000, 16000, 30000],
};

/** Per invoke: an AbortSignal ends the wait (the page leaves, Esc on a long command). */
export interface InvokeOptions {
  signal?: AbortSignal;
}

/** Messages a client sends on the contract's socket: a command, or the cancel of one in flight. */
export type WireRequest = { type: 'invoke'; id: number; cmd: string; input: unknown } | { type: 'cancel'; id: number };

/** The backoff before try number `attempt` (0 first). */
export const backoffOf = (policy: ContractPolicy, attempt: number): number =>
  policy.backoffMs[Math.min(attempt, policy.backoffMs.length - 1)];

interface Call {
  resolve(value: unknown): void;
  reject(err: unknown): void;
  timer: ReturnType<typeof setTimeout>;
  /** The request text while it waits for the connection to open; undefined once sent. */
  queued?: string;
  off(): void;
}

export interface CallTable {
  /** Sends a command (or queues it while the connection opens) and resolves with its answer. */
  invoke(
    cmd: string,
    input: unknown,
    opts: InvokeOptions | undefined,
    state: 'open' | 'opening' | 'down',
    down: CoreError,
  ): Promise<unknown>;
  /** The connection opened: queued commands go out. */
  opened(): void;
  /** A reply arrived. */
  answer(id: number, reply: ReplyEnvelope): void;
  /** The connection dropped or closed: every command waiting fails with this error. */
  failAll(error: CoreError): void;
  readonly size: number;
}

/** The calls of one connection; `send` writes a text message on it. */
export function createCallTable(send: (text: string) => void, policy: ContractPolicy = CONTRACT_POLICY): CallTable {
  const calls = new Map<number, Call>();
  let nextId = 1;
  const end = (id: number) => {
    const c = calls.get(id);
    if (!c) return undefined;
    calls.delete(id);
    clearTimeout(c.timer);
    c.off();
    return c;
  };
  return {
    get size() {
      return calls.size;
    },
    invoke(cmd, input, opts, state, down) {
      if (state === 'down') return Promise.reject(down);
      if (calls.size >= policy.maxPending)
        return Promise.reject(
          new CoreError(
            'limit_reached',
            `${policy.maxPending} commands are already waiting for an answer; ${cmd} was not sent.`,
          ),
        );
      const signal = opts?.signal;
      if (signal?.aborted) return Promise.reject(new CoreError('canceled', `${cmd} was canceled.`));
      const id = nextId++;
      const text = JSON.stringify({ type: 'invoke', id, cmd, input: input ?? {} } satisfies WireRequest);
      return new Promise((resolve, reject) => {
        const wait = state === 'opening' ? policy.connectWaitMs : policy.timeoutMs;
        const timer = setTimeout(() => {
          const c = end(id);
          if (!c) return;
          if (c.queued)
            reject(
              new CoreError(
                down.code,
                `${down.message} (${cmd} waited ${Math.round(wait / 1000)} s for the connection; it was not sent).`,
              ),
            );
          else
            reject(
              new CoreError(
                'timeout',
                `No answer to ${cmd} within ${Math.round(wait / 60_000)} minutes; it may or may not have run.`,
              ),
            );
        }, wait);
        const onAbort = () => {
          const c = end(id);
          if (!c) return;
          if (!c.queued) send(JSON.stringify({ type: 'cancel', id } satisfies WireRequest));
          reject(new CoreError('canceled', `${cmd} was canceled.`));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        calls.set(id, {
          resolve,
          reject,
          timer,
          off: () => signal?.removeEventListener('abort', onAbort),
          ...(state === 'opening' ? { queued: text } : {}),
        });
        if (state === 'open') send(text);
      });
    },
    opened() {
      for (const [id, c] of calls) {
        if (c.queued === undefined) continue;
        send(c.queued);
        c.queued = undefined;
        // From now on the answer has the whole timeout.
        clearTimeout(c.timer);
        c.timer = setTimeout(
          () =>
            end(id) &&
            c.reject(
              new CoreError(
                'timeout',
                `No answer within ${Math.round(policy.timeoutMs / 60_000)} minutes; it may or may not have run.`,
              ),
            ),
          policy.timeoutMs,
        );
      }
    },
    answer(id, reply) {
      const c = end(id);
      if (!c) return;
      if (reply.ok) c.resolve(reply.value);
      else c.reject(new CoreError(reply.error.code, reply.error.message, reply.error.details));
    },
    failAll(error) {
      for (const id of [...calls.keys()]) end(id)?.reject(error);
    },
  };
}
