import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathForLog, TUNNEL_PROOF_HEADER } from '../gateway';
import type { LinkSigner } from './link';

// The tunnel's access guard: the only thing the tunnel engine (cloudflared, ngrok) reaches. It
// listens on loopback and lets a request through to the gateway only when it carries a valid
// cookie, which a caller gets once by presenting the link: GET <publicUrl>/?t=<link> answers 303
// with Set-Cookie: __Host-capsule_tunnel=…. Everything else is refused here, before the gateway
// sees it. What it forwards carries the public host as X-Forwarded-Host and the guard's proof, so
// the gateway believes that host from this guard only; the caller's own forwarding headers, the
// cookie and the proof never travel further than they must.

export const COOKIE_NAME = '__Host-capsule_tunnel';
/** Requests in flight through one guard; above it a caller gets 503 with Retry-After, never a reset. */
export const MAX_IN_FLIGHT = 256;

export type GuardOutcome =
  'forwarded' | 'link_exchanged' | 'no_link' | 'bad_link' | 'expired_link' | 'revoked' | 'busy' | 'gateway_down';

export interface GuardEntry {
  time: string;
  remote: string;
  /** The request's path as logged (query dropped, odd segments `*`): never a link or cookie. */
  method: string;
  status: number;
  outcome: GuardOutcome;
  durationMs: number;
}

export interface GuardOptions {
  /** The gateway's own URL (loopback). */
  gatewayUrl: string;
  /** The public https origin; known once the provider has opened the tunnel. */
  publicOrigin(): string | undefined;
  signer: LinkSigner;
  /** Sent to the gateway with every forwarded request (its hash is in tunnels.json). */
  proof: string;
  /** True once the tunnel's link is revoked (here or by another process). */
  revoked(): boolean;
  onAccess(entry: GuardEntry): void;
  maxInFlight?: number;
}

export interface Guard {
  /** http://127.0.0.1:<port>: what the provider forwards to. */
  readonly url: string;
  close(): Promise<void>;
}

/** Headers that describe the hop, or that a caller could use to pose as the guard. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'forwarded',
  TUNNEL_PROOF_HEADER,
]);

function cookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === COOKIE_NAME) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The Cookie header without ours: the gateway never sees the tunnel's cookie. */
function otherCookies(req: IncomingMessage): string | undefined {
  const rest = (req.headers.cookie ?? '')
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p && !p.startsWith(`${COOKIE_NAME}=`));
  return rest.length ? rest.join('; ') : undefined;
}

const REFUSALS: Record<Exclude<GuardOutcome, 'forwarded' | 'link_exchanged'>, [number, string]> = {
  no_link: [
    401,
    'This tunnel needs its link: open <publicUrl>/?t=<token> once, then send the cookie it sets with every request.',
  ],
  bad_link: [401, 'The tunnel link or cookie is not valid (mistyped, or from another tunnel).'],
  expired_link: [401, 'The tunnel link has expired; ask for a new one.'],
  revoked: [401, 'The tunnel link was revoked.'],
  busy: [503, 'The tunnel is busy; retry shortly.'],
  gateway_down: [502, 'The gateway behind this tunnel does not answer.'],
};

export async function startGuard(opts: GuardOptions): Promise<Guard> {
  const max = opts.maxInFlight ?? MAX_IN_FLIGHT;
  const gateway = new URL(opts.gatewayUrl);
  let inFlight = 0;

  const record = (req: IncomingMessage, started: number, status: number, outcome: GuardOutcome) =>
    opts.onAccess({
      time: new Date(started).toISOString(),
      remote: req.socket.remoteAddress ?? '',
      method: `${req.method ?? '?'} ${pathForLog(req.url ?? '/')}`,
      status,
      outcome,
      durationMs: Date.now() - started,
    });

  const refuse = (req: IncomingMessage, res: ServerResponse, started: number, outcome: keyof typeof REFUSALS) => {
    const [status, message] = REFUSALS[outcome];
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    if (outcome === 'busy') headers['retry-after'] = '1';
    res.writeHead(status, headers).end(JSON.stringify({ error: `tunnel_${outcome}`, message }));
    // The body is not wanted: drop it without reading it into memory.
    req.resume();
    record(req, started, status, outcome);
  };

  const reasonOf = (r: ReturnType<LinkSigner['verify']>): keyof typeof REFUSALS =>
    r.ok ? 'bad_link' : r.reason === 'expired' ? 'expired_link' : 'bad_link';

  const exchange = (req: IncomingMessage, res: ServerResponse, started: number, url: URL, link: string) => {
    const v = opts.signer.verify(link, 'link');
    if (!v.ok) return refuse(req, res, started, reasonOf(v));
    const cookie = opts.signer.mint('cookie', v.claims.exp);
    const maxAge = Math.max(0, Math.floor((v.claims.exp - Date.now()) / 1000));
    url.searchParams.delete('t');
    const location = `${url.pathname}${url.search}`;
    res
      .writeHead(303, {
        location,
        'set-cookie': `${COOKIE_NAME}=${cookie}; Path=/; Max-Age=${maxAge}; Secure; HttpOnly; SameSite=Lax`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      })
      .end();
    req.resume();
    record(req, started, 303, 'link_exchanged');
  };

  const forward = (req: IncomingMessage, res: ServerResponse, started: number, publicOrigin: string) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP.has(name) || name.startsWith('x-forwarded-') || name === 'cookie') continue;
      headers[name] = value;
    }
    const cookies = otherCookies(req);
    if (cookies) headers.cookie = cookies;
    const pub = new URL(publicOrigin);
    headers['x-forwarded-host'] = pub.host;
    headers['x-forwarded-proto'] = pub.protocol.replace(':', '');
    headers[TUNNEL_PROOF_HEADER] = opts.proof;
    inFlight++;
    let done = false;
    const finish = (status: number, outcome: GuardOutcome) => {
      if (done) return;
      done = true;
      inFlight--;
      record(req, started, status, outcome);
    };
    const upstream = request(
      { host: gateway.hostname, port: gateway.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => finish(answer.statusCode ?? 502, 'forwarded'));
        answer.on('error', () => finish(answer.statusCode ?? 502, 'forwarded'));
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) {
        inFlight--;
        done = true;
        return refuse(req, res, started, 'gateway_down');
      }
      res.destroy();
      finish(res.statusCode, 'forwarded');
    });
    // A caller that goes away ends its call at the gateway too (an SSE stream, a long send).
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
      finish(res.statusCode, 'forwarded');
    });
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const started = Date.now();
    const publicOrigin = opts.publicOrigin();
    if (!publicOrigin) return refuse(req, res, started, 'busy');
    if (opts.revoked()) return refuse(req, res, started, 'revoked');
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://guard');
    } catch {
      return refuse(req, res, started, 'bad_link');
    }
    const link = url.searchParams.get('t');
    if (link !== null && (req.method === 'GET' || req.method === 'HEAD')) return exchange(req, res, started, url, link);
    const cookie = cookieOf(req);
    if (cookie === undefined) return refuse(req, res, started, 'no_link');
    const v = opts.signer.verify(cookie, 'cookie');
    if (!v.ok) return refuse(req, res, started, reasonOf(v));
    if (inFlight >= max) return refuse(req, res, started, 'busy');
    forward(req, res, started, publicOrigin);
  });
  // Bounded: a caller that trickles its headers, or holds a connection idle, is let go.
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;

  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
