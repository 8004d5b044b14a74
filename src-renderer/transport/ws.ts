import { CoreError, unwrapReply, type CoreClient, type ReplyEnvelope, type WireMessage, type WireRequest } from '../../src-shared/contract';

// A CoreClient over the web shell's one WebSocket. Commands sent before the socket opens wait for
// it; when the socket drops, pending commands fail with `disconnected` and the client reconnects
// with backoff (event listeners stay subscribed across reconnects).

export interface WsClientOptions {
  /** ws:// or wss:// URL of the contract socket. */
  url: string;
  /** Socket constructor (tests pass the `ws` package's). */
  WebSocketImpl?: typeof WebSocket;
  /** Called when the connection opens (true) or drops (false). */
  onConnectionChange?: (connected: boolean) => void;
}

export function createWsClient(options: WsClientOptions): CoreClient {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const pending = new Map<number, (reply: ReplyEnvelope) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket | undefined;
  let disposed = false;
  let retryMs = 250;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    const ws = new Impl(options.url);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      options.onConnectionChange?.(true);
      for (const m of outbox) ws.send(m);
      outbox = [];
    };
    ws.onmessage = (e: MessageEvent) => {
      let msg: WireMessage;
      try {
        msg = JSON.parse(String(e.data)) as WireMessage;
      } catch {
        return;
      }
      if (msg.type === 'reply') {
        const resolve = pending.get(msg.id);
        pending.delete(msg.id);
        resolve?.(msg);
      } else if (msg.type === 'event') {
        for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
      }
    };
    ws.onclose = () => {
      options.onConnectionChange?.(false);
      for (const [, resolve] of pending) resolve({ ok: false, error: { code: 'disconnected', message: 'The connection to the Studio core was lost.' } });
      pending.clear();
      if (socket === ws) socket = undefined;
      if (!disposed) {
        retryTimer = setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 5000);
      }
    };
  };
  connect();

  return {
    invoke(cmd, input) {
      if (disposed) return Promise.reject(new CoreError('disconnected', 'The Studio client was closed.'));
      const id = nextId++;
      const req: WireRequest = { type: 'invoke', id, cmd, input: input ?? {} };
      const text = JSON.stringify(req);
      return new Promise<ReplyEnvelope>((resolve) => {
        pending.set(id, resolve);
        if (socket && socket.readyState === Impl.OPEN) socket.send(text);
        else outbox.push(text);
      }).then((reply) => unwrapReply(reply) as never);
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
    dispose() {
      disposed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      socket?.close();
    },
  };
}
