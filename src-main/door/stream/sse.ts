import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRpcError, JsonRpcId } from '../../../src-shared/a2a';

// Server-sent events for JSON-RPC streaming (docs/door.md, streams): every event is one `data:` line
// holding a whole JSON-RPC response with the request's id, then a blank line. While nothing is
// sent a `: keepalive` comment goes out every `keepaliveMs`, so proxies and clients keep the
// connection open; a stream lives at most `maxLifeMs`, after which `onCap` may write a last event
// (the task's real state) before the stream closes. A client that goes away only clears timers
// and runs the close listeners (which unsubscribe): nothing else happens.

/** docs/door.md: a keepalive every 15 s of silence, streams closed after 30 minutes. */
export const DEFAULT_KEEPALIVE_MS = 15_000;
export const DEFAULT_STREAM_LIFE_MS = 30 * 60_000;
/** A client that reads nothing while this much is queued is dropped rather than buffered forever. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/** Its continuations run once the current tick is done, process.nextTick work (socket writes) included. */
const afterThisTick = Promise.resolve();

export type SseCloseReason = 'done' | 'client' | 'cap' | 'overflow';

export interface SseOptions {
  keepaliveMs?: number;
  maxLifeMs?: number;
  /** Called when the life cap is reached, before the stream closes. */
  onCap?: () => void;
  /** Extra response headers (e.g. the A2A-Extensions echo). */
  headers?: Record<string, string>;
}

export interface SseStream {
  /** Writes `data: {"jsonrpc":"2.0","id":…,"result":…}`. */
  send(result: unknown): void;
  /** Writes `event: error` with a JSON-RPC error envelope (an error after the stream opened), then closes. */
  fail(error: JsonRpcError): void;
  close(): void;
  readonly closed: boolean;
  /** Runs once, whichever way the stream ends. */
  onClose(listener: (reason: SseCloseReason) => void): void;
}

export function openSse(req: IncomingMessage, res: ServerResponse, id: JsonRpcId, options: SseOptions = {}): SseStream {
  const keepaliveMs = options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS;
  const maxLifeMs = options.maxLifeMs ?? DEFAULT_STREAM_LIFE_MS;
  const listeners: ((reason: SseCloseReason) => void)[] = [];
  let closed = false;
  let keepalive: NodeJS.Timeout | undefined;
  let cap: NodeJS.Timeout | undefined;

  // The connection stays reusable after the stream, as any other answer's does: a client that
  // streams often pays no new TCP connection per call. The door's close cuts sockets left idle.
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    ...options.headers,
  });
  req.socket.setNoDelay(true);
  // The headers leave with the first event, in one socket write: a stream whose first event is
  // ready at once (SendStreamingMessage's task) reaches its caller in one TCP segment, not two.
  // Once this tick's writes have left, a stream with nothing to say yet sends its headers alone,
  // so its caller knows at once that it opened, and the keepalive and life-cap timers start: a
  // stream already over by then (a task that ended within the tick) never starts them.
  let wrote = false;
  void afterThisTick.then(() => {
    if (closed) return;
    if (!wrote) res.flushHeaders();
    cap = setTimeout(() => {
      if (closed) return;
      try {
        options.onCap?.();
      } finally {
        finish('cap');
      }
    }, maxLifeMs);
    if (keepaliveMs > 0) keepalive = setTimeout(() => write(': keepalive\n\n'), keepaliveMs);
  });

  const finish = (reason: SseCloseReason) => {
    if (closed) return;
    closed = true;
    clearTimeout(keepalive);
    clearTimeout(cap);
    res.off('close', onClientGone);
    if (reason !== 'client' && !res.writableEnded) res.end();
    for (const l of listeners.splice(0)) {
      try {
        l(reason);
      } catch {}
    }
  };

  const write = (chunk: string) => {
    if (closed) return;
    wrote = true;
    res.write(chunk);
    if (res.writableLength > MAX_QUEUED_BYTES) {
      res.destroy();
      finish('overflow');
      return;
    }
    keepalive?.refresh(); // a write restarts the quiet period
  };

  function onClientGone() {
    finish('client');
  }
  res.on('close', onClientGone);

  return {
    send(result) {
      write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
    },
    fail(error) {
      write(`event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`);
      finish('done');
    },
    close() {
      finish('done');
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) return;
      listeners.push(listener);
    },
  };
}
