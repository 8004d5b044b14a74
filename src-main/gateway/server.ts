import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { AgentCard } from '../../src-shared/a2a';
import { DOOR_LIMITS, sendCard } from '../door';
import { createAccessLog, pathForLog, redactForLog, type AccessEntry, type AccessLog } from './access-log';
import { capsuleCard, card03, indexCard } from './cards';
import { createExposureStore, type ExposureStore } from './exposures';
import { bearerOf, guard, originOf, sendNotFound, type GuardResult, type OriginSettings } from './guard';
import { mountMcpEndpoint, MCP_PATH, type McpLimits } from './mcp-endpoint';
import { handleRpc } from './rpc';
import { createCardSigner, type CardSigner } from './signing';
import { createTunnelTrust, TUNNEL_PROOF_HEADER } from './tunnels';
import type { ResolveCapsule } from './types';

// The gateway: one listener for every exposed capsule. Index card, per-capsule cards (signed) and
// JSON-RPC endpoints forwarded to each capsule's door; token, origin and 404 rules in guard.ts; the
// MCP endpoint (/mcp) in mcp-endpoint.ts.

export interface GatewayOptions {
  /** 127.0.0.1 unless another interface is chosen explicitly (the Studio warns). */
  host?: string;
  port?: number;
  /** The origin cards advertise (behind a reverse proxy or tunnel); always wins. */
  publicOrigin?: string;
  /** Believe X-Forwarded-Host/-Proto/-For (only behind a proxy you run). */
  trustProxy?: boolean;
  /** Where exposures.json, the access log and the signing key live. */
  dataDir: string;
  resolveCapsule: ResolveCapsule;
  /** Overrides the MCP endpoint's bounds (tests). */
  mcpLimits?: Partial<McpLimits>;
  /** A2A calls one session of this process answers at once (its door's connection cap unless told; tests). */
  maxCallsPerSession?: number;
}

export interface Gateway {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly exposures: ExposureStore;
  readonly access: AccessLog;
  readonly signer: CardSigner;
  /** The signed card a capsule has on this gateway (the Studio's preview), or undefined. */
  cardOf(name: string): Promise<AgentCard | undefined>;
  /** URLs of an exposed capsule on this gateway: A2A JSON-RPC, its card, and the MCP endpoint (Streamable HTTP). */
  urlsOf(name: string): { url: string; card: string; mcp: string };
  /** MCP sessions open now. */
  mcpSessions(): number;
  onAccess(listener: (entry: AccessEntry) => void): () => void;
  close(): Promise<void>;
}

export const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);
const enc = encodeURIComponent;
const CARD_CACHE = 'private, max-age=30';

export async function createGateway(opts: GatewayOptions): Promise<Gateway> {
  const host = opts.host ?? '127.0.0.1';
  const exposures = createExposureStore(opts.dataDir);
  const access = createAccessLog(opts.dataDir);
  const signer = await createCardSigner(opts.dataDir);
  // Closing ends every connection: an MCP client's stream may outlive its session otherwise.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    trustProxy: opts.trustProxy ?? false,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  let bound = '';
  const tunnelTrust = createTunnelTrust(opts.dataDir);
  const settings: OriginSettings = {
    bound: () => bound,
    publicOrigin: opts.publicOrigin,
    trustProxy: opts.trustProxy ?? false,
    tunnelOrigin: (req) => {
      const proof = req.headers[TUNNEL_PROOF_HEADER];
      return typeof proof === 'string' ? tunnelTrust(proof) : undefined;
    },
  };
  const streams = new Map<string, Set<() => void>>();
  exposures.onRevoked((ids) => {
    for (const id of ids) for (const close of [...(streams.get(id) ?? [])]) close();
  });

  // A capsule's URL ends with a slash, so that standard URL resolution of the well-known card
  // path against it (what A2A SDKs do: new URL('.well-known/agent-card.json', url)) lands on its
  // card; JSON-RPC calls are taken with or without the slash.
  const capsuleUrl = (origin: string, name: string) => `${origin}/a2a/capsules/${enc(name)}/`;
  const cardUrlOf = (origin: string, name: string) => `${capsuleUrl(origin, name)}.well-known/agent-card.json`;
  const signedCard = async (origin: string, name: string): Promise<AgentCard | undefined> => {
    const exp = exposures.get(name);
    const cap = exp && (await opts.resolveCapsule(name));
    if (!exp || !cap) return undefined;
    const card = capsuleCard({
      card: cap.card,
      url: capsuleUrl(origin, name),
      accepts: cap.accepts,
      compat03: exp.compat03,
    });
    return signer.sign(card, `${origin}/.well-known/jwks.json`);
  };

  // The capsule and method come from what the caller wrote: the token it presented never goes with them.
  const log = (
    req: FastifyRequest,
    started: number,
    e: Pick<AccessEntry, 'tokenId' | 'capsule' | 'method' | 'status' | 'outcome'>,
  ) => {
    const presented = bearerOf(req);
    // A name the gateway never exposed is whatever the caller typed (a token pasted in the path): '*'.
    const capsule = e.capsule === null ? null : exposures.get(e.capsule) ? redactForLog(e.capsule, presented) : '*';
    access.record({
      time: new Date(started).toISOString(),
      remote: req.ip,
      ...e,
      capsule,
      method: redactForLog(e.method, presented),
      durationMs: Date.now() - started,
    });
  };
  const refused = (
    req: FastifyRequest,
    started: number,
    g: Extract<GuardResult, { ok: false }>,
    capsule: string | null,
    method: string,
  ) => log(req, started, { tokenId: g.tokenId ?? null, capsule, method, status: g.status, outcome: g.outcome });
  // Cards depend on the caller's token (which capsules it opens), so only the caller may keep
  // them, briefly: 30 s bounds how long a revoked or changed exposure can still look current.
  const card = (req: FastifyRequest, reply: FastifyReply, body: unknown) =>
    sendCard(req, reply.header('vary', 'authorization'), JSON.stringify(body), CARD_CACHE);

  // A POST without the right origin or a valid token is refused before its body is read.
  app.addHook('onRequest', async (req, reply) => {
    // Every request meets the exposures as the file holds them now (another process may have revoked one).
    await exposures.current();
    if (req.method !== 'POST') return;
    const started = Date.now();
    const g = guard(req, reply, exposures, settings);
    if (g.ok) return;
    const m = /^\/a2a\/capsules\/([^/?]+)/.exec(req.url);
    let capsule: string | null = null;
    try {
      capsule = m ? decodeURIComponent(m[1]) : null;
    } catch {}
    refused(req, started, g, capsule, req.url.split('?')[0] === MCP_PATH ? `POST ${MCP_PATH}` : 'POST');
    return reply;
  });

  app.get('/.well-known/jwks.json', async (req, reply) =>
    sendCard(req, reply, JSON.stringify(signer.jwks()), 'max-age=300'),
  );

  app.get('/.well-known/agent-card.json', async (req, reply) => {
    const started = Date.now();
    const g = guard(req, reply, exposures, settings);
    if (!g.ok) return refused(req, started, g, null, 'GET index card');
    const origin = originOf(req, settings);
    const cap = await opts.resolveCapsule(g.exposure.capsule);
    const name = g.exposure.capsule;
    const entries = cap
      ? [
          {
            name,
            description: cap.description ?? cap.card.description,
            card: cardUrlOf(origin, name),
            url: capsuleUrl(origin, name),
          },
        ]
      : [];
    card(req, reply, indexCard(entries, origin));
    log(req, started, {
      tokenId: g.exposure.tokenId,
      capsule: null,
      method: 'GET index card',
      status: reply.statusCode,
      outcome: 'ok',
    });
  });

  const cardRoute =
    (compat: boolean) => async (req: FastifyRequest<{ Params: { name?: string } }>, reply: FastifyReply) => {
      const started = Date.now();
      // Without a name (a capsule URL written without its trailing slash, resolved by an SDK to
      // /a2a/capsules/.well-known/agent-card.json): the card of the one capsule the token opens.
      const name = req.params.name ?? exposures.authenticate(bearerOf(req) ?? '')?.capsule ?? '\u0000';
      const method = compat ? 'GET card 0.3' : 'GET card';
      const g = guard(req, reply, exposures, settings, name);
      if (!g.ok) return refused(req, started, g, name, method);
      const origin = originOf(req, settings);
      const signed = await signedCard(origin, name);
      if (!signed || (compat && !g.exposure.compat03)) {
        sendNotFound(reply);
        return log(req, started, {
          tokenId: g.exposure.tokenId,
          capsule: name,
          method,
          status: 404,
          outcome: 'not_found',
        });
      }
      card(req, reply, compat ? card03(signed, capsuleUrl(origin, name)) : signed);
      log(req, started, {
        tokenId: g.exposure.tokenId,
        capsule: name,
        method,
        status: reply.statusCode,
        outcome: 'ok',
      });
    };
  app.get('/a2a/capsules/:name/.well-known/agent-card.json', cardRoute(false));
  app.get('/a2a/capsules/.well-known/agent-card.json', cardRoute(false));
  app.get('/a2a/capsules/:name/v0.3/agent-card.json', cardRoute(true));

  app.post('/a2a/capsules/:name', async (req: FastifyRequest<{ Params: { name: string } }>, reply) => {
    const started = Date.now();
    const name = req.params.name;
    const g = guard(req, reply, exposures, settings, name);
    if (!g.ok) return refused(req, started, g, name, 'POST');
    const cap = await opts.resolveCapsule(name);
    if (!cap) {
      sendNotFound(reply);
      return log(req, started, {
        tokenId: g.exposure.tokenId,
        capsule: name,
        method: 'POST',
        status: 404,
        outcome: 'not_running',
      });
    }
    const tokenId = g.exposure.tokenId;
    const origin = originOf(req, settings);
    const result = await handleRpc({
      req,
      reply,
      exposure: g.exposure,
      capsule: cap,
      url: capsuleUrl(origin, name),
      card: async () => (await signedCard(origin, name)) ?? cap.card,
      maxCalls: opts.maxCallsPerSession ?? DOOR_LIMITS.maxConnections,
      track(close) {
        let set = streams.get(tokenId);
        if (!set) streams.set(tokenId, (set = new Set()));
        set.add(close);
        // Revoked between the guard and now: end at once.
        if (!exposures.list().some((e) => e.tokenId === tokenId)) queueMicrotask(close);
        return () => set.delete(close);
      },
    });
    const entry = { tokenId, capsule: name, method: result.method, status: result.status };
    if (result.done) void result.done.then((outcome) => log(req, started, { ...entry, outcome }));
    else log(req, started, { ...entry, outcome: result.outcome });
  });

  const mcp = mountMcpEndpoint(app, {
    exposures,
    settings,
    resolveCapsule: opts.resolveCapsule,
    log,
    refused,
    limits: opts.mcpLimits,
  });

  app.setNotFoundHandler((req, reply) => {
    const started = Date.now();
    const g = guard(req, reply, exposures, settings, '\u0000');
    if (g.ok) sendNotFound(reply);
    else refused(req, started, g, null, `${req.method} ${pathForLog(req.url, bearerOf(req))}`);
  });

  await app.listen({ host, port: opts.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  bound = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: opts.publicOrigin?.replace(/\/+$/, '') ?? bound,
    host,
    port,
    exposures,
    access,
    signer,
    cardOf: (name) => signedCard(opts.publicOrigin?.replace(/\/+$/, '') ?? bound, name),
    urlsOf(name) {
      const origin = opts.publicOrigin?.replace(/\/+$/, '') ?? bound;
      return { url: capsuleUrl(origin, name), card: cardUrlOf(origin, name), mcp: `${origin}${MCP_PATH}` };
    },
    mcpSessions: () => mcp.sessionCount(),
    onAccess: access.onAccess,
    async close() {
      for (const set of streams.values()) for (const close of [...set]) close();
      await mcp.close();
      exposures.dispose();
      await app.close();
      await access.flush();
    },
  };
}
