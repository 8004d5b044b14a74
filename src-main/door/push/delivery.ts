import type { StreamResponse, TaskPushNotificationConfig } from '../../../src-shared/a2a';
import type { PushStore } from './store';

// Delivery of task events to webhooks. Each config has its own ordered queue, so a webhook that
// fails or hangs delays only its own later events, never another config's nor the task itself.
// A POST gets `timeoutMs`; failures that may pass (network, timeout, 5xx, 408, 429) are retried
// after each `backoffMs` step; any other 4xx is the receiver's final word. The queue re-reads the
// config before every attempt, so a deleted config stops receiving at once and a replaced one
// gets its new URL and headers.

export interface PushTiming {
  /** Per POST. */
  timeoutMs: number;
  /** Wait before each retry; attempts = backoffMs.length + 1. */
  backoffMs: readonly number[];
}

/** docs/door.md: 10 s per POST, 3 attempts, 1 s then 5 s between them. */
export const DEFAULT_PUSH_TIMING: PushTiming = { timeoutMs: 10_000, backoffMs: [1_000, 5_000] };

/** Media type of a push body (A2A 1.0: the StreamResponse as JSON). */
export const PUSH_CONTENT_TYPE = 'application/a2a+json';

export interface PushTraceSink {
  append(event: { event_type: string } & Record<string, unknown>): unknown;
}

export interface PushDeliveryOptions {
  store: PushStore;
  /** Where push_delivered / push_failed go (the session's trace). */
  trace?: PushTraceSink;
  timing?: Partial<PushTiming>;
}

export interface PushDelivery {
  /** Queues an event for every current config of its task. */
  deliver(taskId: string, event: StreamResponse): void;
  /** Queues an event for one config only (the single final update of a config made on a finished task). */
  deliverTo(config: TaskPushNotificationConfig, event: StreamResponse): void;
  /** Resolves once every queue has drained. */
  idle(): Promise<void>;
  /** Aborts POSTs in flight and drops what is queued. */
  dispose(): void;
}

interface Queue {
  taskId: string;
  configId: string;
  events: StreamResponse[];
}

const RETRYABLE_4XX = new Set([408, 429]);

/** Origin and path only: a query string may carry a secret of the receiver's. */
const redactUrl = (raw: string) => {
  try {
    const u = new URL(raw);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
};

const eventKind = (e: StreamResponse) =>
  Object.keys(e).find((k) => (e as Record<string, unknown>)[k] !== undefined) ?? 'unknown';

export function pushHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': PUSH_CONTENT_TYPE };
  if (config.token) headers['x-a2a-notification-token'] = config.token;
  const auth = config.authentication;
  if (auth?.credentials) headers.authorization = `${auth.scheme} ${auth.credentials}`;
  return headers;
}

export function createPushDelivery(options: PushDeliveryOptions): PushDelivery {
  const { store, trace } = options;
  const timing: PushTiming = { ...DEFAULT_PUSH_TIMING, ...options.timing };
  const queues = new Map<string, Queue>();
  const disposed = new AbortController();
  let idleWaiters: (() => void)[] = [];

  const settleIfIdle = () => {
    if (queues.size) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (disposed.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        disposed.signal.removeEventListener('abort', done);
        resolve();
      }
      disposed.signal.addEventListener('abort', done, { once: true });
    });

  /** One POST: the HTTP status, or the reason it never got one. */
  async function post(config: TaskPushNotificationConfig, body: string): Promise<{ status?: number; error?: string }> {
    const signal = AbortSignal.any([AbortSignal.timeout(timing.timeoutMs), disposed.signal]);
    try {
      // Redirects are not followed: the URL rules were checked on this URL, not on where it points.
      const res = await fetch(config.url, {
        method: 'POST',
        headers: pushHeaders(config),
        body,
        signal,
        redirect: 'manual',
      });
      await res.body?.cancel().catch(() => {});
      return { status: res.status };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      if (e.name === 'TimeoutError') return { error: `timed out after ${timing.timeoutMs} ms` };
      if (e.name === 'AbortError') return { error: 'aborted' };
      // The error goes to the trace: keep the config's secrets out of it whatever the message quotes.
      let error = e.cause?.code ?? e.message;
      for (const secret of [config.token, config.authentication?.credentials])
        if (secret) error = error.split(secret).join('***');
      return { error };
    }
  }

  async function send(q: Queue, event: StreamResponse): Promise<void> {
    const body = JSON.stringify(event);
    const started = Date.now();
    const base = { task_id: q.taskId, config_id: q.configId, event: eventKind(event) };
    for (let attempts = 1; ; attempts++) {
      // Re-read each time: a config deleted between retries gets nothing more.
      const config = store.get(q.taskId, q.configId);
      if (!config || disposed.signal.aborted) return;
      const url = redactUrl(config.url);
      const { status, error } = await post(config, body);
      if (disposed.signal.aborted) return;
      if (status !== undefined && status >= 200 && status < 300) {
        trace?.append({
          event_type: 'push_delivered',
          ...base,
          url,
          status,
          attempts,
          duration_ms: Date.now() - started,
        });
        return;
      }
      const receiverSaidNo = status !== undefined && status < 500 && !RETRYABLE_4XX.has(status);
      if (receiverSaidNo || attempts > timing.backoffMs.length) {
        trace?.append({
          event_type: 'push_failed',
          ...base,
          url,
          attempts,
          ...(status !== undefined ? { status } : {}),
          error: error ?? `HTTP ${status}`,
        });
        return;
      }
      await wait(timing.backoffMs[attempts - 1]);
    }
  }

  async function drain(key: string, q: Queue): Promise<void> {
    try {
      while (q.events.length && !disposed.signal.aborted) await send(q, q.events.shift()!);
    } finally {
      queues.delete(key);
      settleIfIdle();
    }
  }

  function enqueue(taskId: string, configId: string, event: StreamResponse) {
    if (disposed.signal.aborted) return;
    const key = `${taskId}\u0000${configId}`;
    const running = queues.get(key);
    if (running) {
      running.events.push(event);
      return;
    }
    const q: Queue = { taskId, configId, events: [event] };
    queues.set(key, q);
    void drain(key, q);
  }

  return {
    deliver(taskId, event) {
      for (const c of store.list(taskId)) enqueue(taskId, c.id!, event);
    },
    deliverTo(config, event) {
      if (config.taskId && config.id) enqueue(config.taskId, config.id, event);
    },
    idle() {
      if (!queues.size) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    dispose() {
      disposed.abort();
      for (const q of queues.values()) q.events.length = 0;
    },
  };
}
