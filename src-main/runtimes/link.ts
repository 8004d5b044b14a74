import WebSocket from 'ws';
import {
  backoffOf,
  CONTRACT_POLICY,
  CoreError,
  createCallTable,
  WS_PATH,
  type InvokeOptions,
  type ReplyEnvelope,
  type RuntimeLinkState,
} from '../../src-shared/contract';

// One WebSocket to a runtime on another host (`capsule serve --studio`): the contract's invoke /
// reply / event / cancel messages, with the token as a bearer header, under the contract's one
// call policy (queueing, bounds, timeout, backoff and cancellation: src-shared/contract/calls.ts),
// the same as the renderer's. A link that drops retries for as long as it is attached; a refused
// token (401 at the upgrade, or 4401 when it is revoked) stops retrying: the user attaches again
// with a new one.

/** The largest message taken from a runtime (a formation, a page of trace lines). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface LinkStatus {
  state: RuntimeLinkState;
  retryInS?: number;
  message?: string;
}

export interface LinkOptions {
  url: string;
  token: string;
  /** The link came up (first time or again): the owner reads the formation and re-follows. */
  onOpen(): void;
  onEvent(event: string, payload: unknown): void;
  onStatus(status: LinkStatus): void;
  /** For tests: a faster backoff. */
  backoffMs?: readonly number[];
}

export interface RuntimeLink {
  status(): LinkStatus;
  invoke(cmd: string, input: unknown, opts?: InvokeOptions): Promise<unknown>;
  /** Tries now (a lost link, or a refused one after its token was replaced). */
  retry(token?: string): void;
  close(): void;
}

export function wsUrlOf(url: string): string {
  const u = new URL(url);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = `${u.pathname.replace(/\/$/, '')}${WS_PATH}`;
  u.search = '';
  u.hash = '';
  return u.href;
}

export function createRuntimeLink(opts: LinkOptions): RuntimeLink {
  const policy = opts.backoffMs ? { ...CONTRACT_POLICY, backoffMs: opts.backoffMs } : CONTRACT_POLICY;
  let token = opts.token;
  let socket: WebSocket | undefined;
  let status: LinkStatus = { state: 'connecting' };
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const calls = createCallTable((text) => socket?.send(text), policy);

  const setStatus = (s: LinkStatus) => {
    status = s;
    opts.onStatus(s);
  };
  const failPending = (why: string) => calls.failAll(new CoreError('remote_unreachable', why));
  const schedule = (message: string) => {
    if (closed) return;
    const wait = backoffOf(policy, attempt);
    attempt++;
    setStatus({ state: 'lost', retryInS: Math.ceil(wait / 1000), message });
    timer = setTimeout(connect, wait);
  };

  function connect() {
    timer = undefined;
    if (closed) return;
    if (status.state !== 'lost') setStatus({ state: 'connecting' });
    const ws = new WebSocket(wsUrlOf(opts.url), {
      headers: { authorization: `Bearer ${token}` },
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: 10_000,
    });
    socket = ws;
    let refused = false;
    let answered: string | undefined;
    ws.on('unexpected-response', (_req, res) => {
      refused = res.statusCode === 401 || res.statusCode === 403;
      answered =
        res.statusCode === 401
          ? 'refused 401: the token was not accepted (wrong, rotated or revoked)'
          : res.statusCode === 403
            ? 'refused 403: the runtime does not accept this host or origin (see --public-origin)'
            : `the runtime answered HTTP ${res.statusCode}`;
      if (refused) setStatus({ state: 'refused', message: answered });
      ws.terminate(); // 'close' follows
    });
    ws.on('open', () => {
      attempt = 0;
      setStatus({ state: 'connected' });
      calls.opened();
      opts.onOpen();
    });
    ws.on('message', (data) => {
      let msg: { type?: string; id?: number; event?: string; payload?: unknown } & Partial<ReplyEnvelope>;
      try {
        msg = JSON.parse(String(data));
      } catch {
        return; // not the contract: ignored
      }
      if (msg.type === 'event' && typeof msg.event === 'string') opts.onEvent(msg.event, msg.payload);
      else if (msg.type === 'reply' && typeof msg.id === 'number') calls.answer(msg.id, msg as ReplyEnvelope);
    });
    ws.on('error', () => {
      // 'close' follows and decides; the error text may name the URL only.
    });
    ws.on('close', (code) => {
      if (socket !== ws) return;
      socket = undefined;
      failPending('the link to the runtime was lost; the command may or may not have run there');
      if (closed || refused) return;
      if (code === 4401) {
        setStatus({ state: 'refused', message: 'refused 401: the token was revoked on the runtime' });
        return;
      }
      schedule(answered ?? (status.state === 'connected' ? 'the connection was lost' : 'the runtime does not answer'));
    });
  }

  connect();

  return {
    status: () => status,
    invoke(cmd, input, call) {
      const state =
        socket?.readyState === WebSocket.OPEN ? 'open' : socket && status.state === 'connecting' ? 'opening' : 'down';
      return calls.invoke(
        cmd,
        input,
        call,
        state,
        new CoreError(
          'remote_unreachable',
          `The runtime is ${status.state}${status.message ? ` (${status.message})` : ''}; the command was not sent.`,
        ),
      );
    },
    retry(next) {
      if (next) token = next;
      if (closed || socket) return;
      if (timer) clearTimeout(timer);
      attempt = 0;
      connect();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      failPending('the runtime was detached');
      const s = socket;
      socket = undefined;
      s?.close(1000, 'detached');
    },
  };
}
