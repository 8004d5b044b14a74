import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local webhook receiver for tests: each path answers from its own script of cues, one cue per
// request (the last cue repeats). 'hang' never answers (the sender's timeout must end it).

export type Cue = number | 'hang';

export interface Received {
  path: string;
  at: number;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** When the sender dropped a request left hanging (its timeout). */
  droppedAt?: number;
}

export interface Receiver {
  url(path: string): string;
  cue(path: string, ...cues: Cue[]): void;
  received: Received[];
  /** Resolves once `n` requests reached `path`. */
  waitFor(path: string, n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const cues = new Map<string, Cue[]>();
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '/';
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {}
      const hit: Received = { path, at: Date.now(), headers: req.headers, body };
      received.push(hit);
      for (const w of waiters.splice(0)) w();
      const script = cues.get(path) ?? [200];
      const cue = script.length > 1 ? script.shift()! : script[0];
      if (cue === 'hang') {
        res.on('close', () => (hit.droppedAt = Date.now()));
        return;
      }
      res.writeHead(cue).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    cue: (path, ...c) => cues.set(path, c),
    received,
    async waitFor(path, n) {
      while (at(path).length < n) await new Promise<void>((r) => waiters.push(r));
      return at(path);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
