import Fastify, { type FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { WS_PATH } from '../../../src-shared/contract';
import type { Core } from '../../core';
import type { ExposureStore } from '../../gateway';
import { attachedRefusal, type AttachedScope } from './attached-scope';
import { allowedHosts } from './server';
import { serveContract } from './socket';

// The Studio's contract offered to Studios on other machines: the same WebSocket as the web
// shell, but only with a bearer token (made once, stored hashed, revocable: the gateway's token
// store, under the one name "studio"), and with the web shell's Host and Origin checks widened
// only to the public origin a reverse proxy gives it. TLS is that proxy's job; this server
// speaks plain HTTP and binds loopback unless told otherwise.

export const STUDIO_TOKEN_NAME = 'studio';

export interface RemoteStudioOptions {
  core: Core;
  tokens: ExposureStore;
  host?: string;
  port?: number;
  /** The origin remote Studios reach this server at through a proxy (https://studio.example.com). */
  publicOrigin?: string;
  /** What an attached Studio may do on this host (attached-scope.ts). */
  scope: AttachedScope;
}

export interface RemoteStudio {
  readonly url: string;
  readonly port: number;
  readonly app: FastifyInstance;
  dispose(): Promise<void>;
}

function bearer(header: string | undefined): string | undefined {
  const m = /^Bearer (\S{1,512})$/.exec(header ?? '');
  return m?.[1];
}

/**
 * The core as an attached Studio may drive it: everything but this host's own attached runtimes
 * (a Studio elsewhere must not make this server open links to other hosts with its tokens), and
 * within the scope the host gave it (folders, commands run on the host).
 */
function attachedView(core: Core, scope: AttachedScope): Core {
  return {
    ...core,
    connect(send) {
      const c = core.connect(send);
      const refuse = (code: 'invalid_input' | 'forbidden', message: string) => ({
        ok: false as const,
        error: { code, message },
      });
      return {
        ...c,
        async handle(cmd, input) {
          if (typeof cmd === 'string' && cmd.startsWith('runtimes.'))
            return refuse(
              'invalid_input',
              `${cmd} is not offered to attached Studios; attach runtimes from a Studio of your own.`,
            );
          const refusal =
            typeof cmd === 'string'
              ? await attachedRefusal(scope, cmd, input, (name, args) => c.handle(name, args))
              : undefined;
          return refusal ? refuse('forbidden', refusal) : c.handle(cmd, input);
        },
      };
    },
  };
}

export function buildRemoteStudio(opts: RemoteStudioOptions, portOf: () => number): FastifyInstance {
  const app = Fastify({ logger: false });
  // Sockets by token id, so a revoked or rotated token closes the Studios that used it at once.
  const open = new Map<string, Set<{ close(code?: number, reason?: string): void }>>();
  const offRevoked = opts.tokens.onRevoked((ids) => {
    for (const id of ids) for (const s of open.get(id) ?? []) s.close(4401, 'token revoked');
  });
  app.addHook('onClose', async () => offRevoked());
  void app.register(fastifyWebsocket, { options: { maxPayload: 2 * 1024 * 1024 } });
  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      const hosts = allowedHosts(portOf());
      const bound =
        opts.host && opts.host !== '0.0.0.0' && opts.host !== '::'
          ? `${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${portOf()}`
          : undefined;
      if (bound) hosts.add(bound);
      const publicHost = opts.publicOrigin ? new URL(opts.publicOrigin).host : undefined;
      if (publicHost) hosts.add(publicHost);
      const host = req.headers.host ?? '';
      if (!hosts.has(host)) return reply.code(403).send({ error: `host ${host} is not this Studio` });
      // A Studio connects from its main process (no Origin); a web page must come from the
      // public origin or this server itself, never from a page elsewhere using the visitor's token.
      const origin = req.headers.origin;
      const origins = new Set([...hosts].map((h) => `http://${h}`));
      if (opts.publicOrigin) origins.add(opts.publicOrigin);
      if (origin !== undefined && !origins.has(origin))
        return reply.code(403).send({ error: `origin ${origin} may not use the Studio` });
      const token = bearer(req.headers.authorization);
      const found = token ? opts.tokens.authenticate(token) : undefined;
      if (!found || found.capsule !== STUDIO_TOKEN_NAME)
        return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'a valid Studio token is required' });
      (req as { studioTokenId?: string }).studioTokenId = found.tokenId;
    });
    scope.get(WS_PATH, { websocket: true }, (socket, req) => {
      const id = (req as { studioTokenId?: string }).studioTokenId!;
      const set = open.get(id) ?? new Set();
      open.set(id, set);
      set.add(socket);
      socket.on('close', () => set.delete(socket));
      serveContract(attachedView(opts.core, opts.scope), socket as never);
    });
  });
  return app;
}

export async function startRemoteStudio(opts: RemoteStudioOptions): Promise<RemoteStudio> {
  let port = 0;
  const app = buildRemoteStudio(opts, () => port);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  port = (app.server.address() as { port: number }).port;
  return {
    url: opts.publicOrigin ?? `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`,
    port,
    app,
    async dispose() {
      await app.close();
    },
  };
}
