import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { WS_PATH } from '../../../src-shared/contract';
import type { Core } from '../../core';
import { CSP } from '../csp';
import { serveContract } from './socket';

// The web shell: the built renderer plus the contract over one WebSocket, on 127.0.0.1 only.
// A page from another origin (or a DNS-rebound host name) gets no socket: the contract can launch
// capsules and write files, so only the Studio's own page may drive it.

export interface WebShellOptions {
  core: Core;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 lets the OS pick. */
  port?: number;
  host?: string;
}

export interface WebShell {
  readonly url: string;
  readonly port: number;
  readonly app: FastifyInstance;
  dispose(): Promise<void>;
}

/** Hosts this server answers to: the loopback names with its port. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function buildWebShell(
  opts: Pick<WebShellOptions, 'core' | 'rendererDir'>,
  portOf: () => number,
): FastifyInstance {
  const app = Fastify({ logger: false });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
  void app.register(fastifyWebsocket, { options: { maxPayload: 2 * 1024 * 1024 } });
  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      const hosts = allowedHosts(portOf());
      const host = req.headers.host ?? '';
      const origin = req.headers.origin;
      if (!hosts.has(host)) return reply.code(403).send({ error: `host ${host} is not this Studio` });
      // Browsers always send Origin on a WebSocket; tools without one (tests, scripts) are local
      // processes that could read the files anyway.
      if (origin !== undefined && !hosts.has(origin.replace(/^http:\/\//, '')))
        return reply.code(403).send({ error: `origin ${origin} may not use the Studio` });
    });
    scope.get(WS_PATH, { websocket: true }, (socket) => serveContract(opts.core, socket as never));
  });
  const index = join(opts.rendererDir, 'index.html');
  if (existsSync(index)) {
    void app.register(fastifyStatic, { root: opts.rendererDir, index: 'index.html' });
  } else {
    app.get('/', async (_req, reply) =>
      reply.code(503).type('text/plain').send(`The Studio UI is not built (${index} is missing): run npm run build.`),
    );
  }
  return app;
}

export async function startWebShell(opts: WebShellOptions): Promise<WebShell> {
  let port = 0;
  const app = buildWebShell(opts, () => port);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  port = (app.server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    app,
    async dispose() {
      await app.close();
    },
  };
}
