import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicWire } from './anthropic-wire';
import { chatWire, responsesWire } from './openai-wire';
import type { FakeReply, Wire } from './script';

// A stand-in for a model provider on loopback (port 0), speaking its real wire format. Tests
// script the replies and read back every request it received, and can wait for the client to
// close a connection (to prove an abort really dropped the request).

export type WireName = 'anthropic' | 'chat' | 'responses';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** Resolves when the connection of this request is closed (by either side). */
  closed: Promise<void>;
  /** Resolves once the first bytes of a streamed answer went out. */
  streaming: Promise<void>;
}

export interface FakeProvider {
  /** Base URL to put in gateway.endpoint. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues replies; a request with nothing queued gets a 500 naming that. */
  reply(...replies: FakeReply[]): void;
  /** Resolves with the n-th request (0-based) once it has arrived. */
  request(n: number): Promise<RecordedRequest>;
  dispose(): Promise<void>;
}

const WIRES: Record<WireName, Wire> = { anthropic: anthropicWire, chat: chatWire, responses: responsesWire };

export async function startFakeProvider(name: WireName, opts: { key?: string } = {}): Promise<FakeProvider> {
  const wire = WIRES[name];
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const streamStarted = new WeakMap<ServerResponse, () => void>();

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
      let markStreaming!: () => void;
      const streaming = new Promise<void>((resolve) => (markStreaming = resolve));
      streamStarted.set(res, markStreaming);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, closed, streaming });
      waiters.splice(0).forEach((w) => w());
      answer(req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  function sendError(
    res: ServerResponse,
    status: number,
    type: string,
    message: string,
    headers: Record<string, string> = {},
  ) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(wire.errorBody(type, message)));
  }

  function answer(req: IncomingMessage, res: ServerResponse, body: any) {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || !wire.paths.includes(path))
      return sendError(res, 404, 'not_found_error', `no route ${req.method} ${path}`);
    if (opts.key) {
      const presented = String(req.headers['x-api-key'] ?? req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (presented !== opts.key) return sendError(res, 401, 'authentication_error', 'invalid api key');
    }
    const reply = queue.shift();
    if (!reply) return sendError(res, 500, 'api_error', 'fake provider: no reply scripted for this request');
    const model = String(body?.model ?? 'unknown');
    if ('reset' in reply) return req.socket.destroy();
    if ('error' in reply)
      return sendError(res, reply.error.status, reply.error.type, reply.error.message, reply.error.headers);
    if ('turn' in reply && body?.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(wire.jsonTurn(reply.turn, model)));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    if ('turn' in reply) {
      // One chunk per write, a tick apart, so the client sees a stream rather than one body.
      const chunks = wire.streamTurn(reply.turn, model);
      const next = () => {
        const c = chunks.shift();
        if (c === undefined) return res.end();
        res.write(c, () => {
          streamStarted.get(res)?.();
          setImmediate(next);
        });
      };
      return next();
    }
    const text = 'hang' in reply ? reply.hang.text : reply.breakAfter.text;
    res.write(wire.streamStart(text, model).join(''), () => {
      streamStarted.get(res)?.();
      if ('breakAfter' in reply) res.socket?.destroy();
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${wire.basePath}`,
    requests,
    reply: (...r) => void queue.push(...r),
    async request(n) {
      while (requests.length <= n) await new Promise<void>((resolve) => waiters.push(resolve));
      return requests[n];
    },
    async dispose() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
