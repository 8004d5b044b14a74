import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import { MOVED_PATH } from '../../../src-shared/contract';
import { writeFileAtomic } from '../../workspace';
import { allowedHosts } from './server';

// A web shell page stays open when the core behind it ends (Ctrl-C, a crash), and the next start
// usually listens on another port (port 0: the OS picks one). The page cannot look for it: a
// browser page reads no files and cannot read other ports' answers. So the address the page knows
// answers for it. Each web shell records its port in web-shell.json in the Studio's data folder;
// the next one, listening elsewhere, also listens on the recorded earlier ports that are free,
// with a server that only says where the Studio runs now: MOVED_PATH answers `{ url }` (the page
// asks its own origin when its socket drops, so no other site can read it), and the page's own
// address redirects there. The answer is an address and nothing else (the web shell has no token).

const RECORD_FILE = 'web-shell.json';
/** Earlier ports kept answering: a page left open across a few restarts still finds its way. */
export const EARLIER_PORTS_KEPT = 4;

const record = z.object({ ports: z.array(z.number().int().min(1).max(65535)).max(64) });

export interface EarlierAddresses {
  /** The earlier ports that now point at this web shell (the busy ones are left alone). */
  readonly ports: readonly number[];
  dispose(): Promise<void>;
}

function readPorts(file: string): number[] {
  try {
    const parsed = record.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.ports : [];
  } catch {
    return []; // none yet, or damaged: nothing to point from
  }
}

/** A server on an earlier port saying only that the Studio is now at `url`. */
function pointer(port: number, url: string): Server {
  const hosts = allowedHosts(port);
  const body = JSON.stringify({ url });
  const server = createServer((req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'no-store');
    res.setHeader('referrer-policy', 'no-referrer');
    // The web shell's own Host rule: a DNS-rebound name learns nothing here either.
    if (!hosts.has(req.headers.host ?? ''))
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end('not this Studio\n');
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === MOVED_PATH)
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (req.method === 'GET' && path === '/') return void res.writeHead(307, { location: `${url}/` }).end();
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`The Studio moved to ${url}\n`);
  });
  // The old page's socket: refused at once, so it asks MOVED_PATH.
  server.on('upgrade', (_req, socket) =>
    socket.end('HTTP/1.1 410 Gone\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'),
  );
  server.headersTimeout = 5_000;
  server.requestTimeout = 5_000;
  return server;
}

function listen(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const busy = () => resolve(false);
    server.once('error', busy);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', busy);
      resolve(true);
    });
  });
}

/**
 * Records this web shell's port for the next one, and points the earlier ports recorded (those
 * still free) at `url`. Never fails the start: a home it cannot write only means no pointers.
 */
export async function pointEarlierAddresses(opts: {
  dataDir: string;
  port: number;
  url: string;
}): Promise<EarlierAddresses> {
  const file = join(opts.dataDir, RECORD_FILE);
  const earlier = readPorts(file)
    .filter((p) => p !== opts.port)
    .slice(0, EARLIER_PORTS_KEPT);
  try {
    writeFileAtomic(file, `${JSON.stringify({ ports: [opts.port, ...earlier] })}\n`);
  } catch {}
  const servers: Server[] = [];
  const ports: number[] = [];
  for (const port of earlier) {
    const server = pointer(port, opts.url);
    if (await listen(server, port)) {
      servers.push(server);
      ports.push(port);
    }
  }
  return {
    ports,
    async dispose() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
