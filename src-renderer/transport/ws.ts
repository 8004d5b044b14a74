import {
  backoffOf,
  CONTRACT_POLICY,
  CoreError,
  createCallTable,
  type CoreClient,
  type WireMessage,
} from '../../src-shared/contract';

// A CoreClient over the web shell's one WebSocket, with the contract's one call policy
// (src-shared/contract/calls.ts): commands made while the socket opens wait for it; when it drops,
// commands waiting fail with `disconnected`, and it reconnects with the policy's backoff (event
// listeners stay subscribed across reconnects) until the Studio turns out to run at another
// address (`findMoved`). An aborted invoke tells the core to stop.

export interface WsClientOptions {
  /** ws:// or wss:// URL of the contract socket. */
  url: string;
  /** Socket constructor (tests pass the `ws` package's). */
  WebSocketImpl?: typeof WebSocket;
  /** Called when the connection opens (true) or drops (false). */
  onConnectionChange?: (connected: boolean) => void;
  /**
   * Asked after each drop, before trying again: the Studio's new address when it was started again
   * elsewhere. Then the client stops reconnecting and tells `onMoved`.
   */
  findMoved?: () => Promise<string | undefined>;
  onMoved?: (url: string) => void;
}

const LOST = 'The connection to the Studio core was lost.';

export function createWsClient(options: WsClientOptions): CoreClient {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocket | undefined;
  let disposed = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const calls = createCallTable((text) => socket?.send(text));

  const connect = () => {
    retryTimer = undefined;
    const ws = new Impl(options.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      options.onConnectionChange?.(true);
      calls.opened();
    };
    ws.onmessage = (e: MessageEvent) => {
      let msg: WireMessage;
      try {
        msg = JSON.parse(String(e.data)) as WireMessage;
      } catch {
        return;
      }
      if (msg.type === 'reply') calls.answer(msg.id, msg);
      else if (msg.type === 'event') for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      options.onConnectionChange?.(false);
      calls.failAll(new CoreError('disconnected', LOST));
      const retry = () => {
        if (!disposed) retryTimer = setTimeout(connect, backoffOf(CONTRACT_POLICY, attempt++));
      };
      if (disposed) return;
      if (!options.findMoved) return retry();
      void options.findMoved().then((url) => {
        if (disposed) return;
        if (url) options.onMoved?.(url);
        else retry();
      }, retry);
    };
  };
  connect();

  const state = () => (disposed || !socket ? 'down' : socket.readyState === Impl.OPEN ? 'open' : 'opening');
  return {
    invoke(cmd, input, opts) {
      const down = disposed ? 'The Studio client was closed.' : LOST;
      return calls.invoke(cmd, input, opts, state(), new CoreError('disconnected', down)) as never;
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
      const s = socket;
      socket = undefined;
      calls.failAll(new CoreError('disconnected', 'The Studio client was closed.'));
      s?.close();
    },
  };
}
