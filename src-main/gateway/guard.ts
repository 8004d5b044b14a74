import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExposureInfo, ExposureStore } from './exposures';

// The gateway's front door rules, in order: a browser call from a foreign Origin is refused (403);
// a call without a valid bearer token gets 401; a capsule the token does not open gets the same
// 404 whether it is unexposed, stopped or does not exist.

export interface OriginSettings {
  /** The origin the gateway listens on (http://host:port). */
  bound(): string;
  publicOrigin?: string;
  trustProxy: boolean;
  /** The public origin of the tunnel whose guard forwarded this request (it carries the guard's proof). */
  tunnelOrigin?: (req: FastifyRequest) => string | undefined;
}

const LOOPBACK_ANY = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The origin a caller should use: the setting, else the tunnel's public origin when the request
 * came through a tunnel's guard, else X-Forwarded-Host when trusted, else the bound one.
 */
export function originOf(req: FastifyRequest, s: OriginSettings): string {
  if (s.publicOrigin) return s.publicOrigin.replace(/\/+$/, '');
  const tunnel = s.tunnelOrigin?.(req);
  if (tunnel) return tunnel;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim();
  if (s.trustProxy) {
    const host = first(req.headers['x-forwarded-host']);
    if (host && /^[a-z0-9.\-[\]:]+$/i.test(host)) {
      const proto = first(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
      return `${proto}://${host}`;
    }
  }
  const bound = s.bound();
  const u = new URL(bound);
  // Bound to every interface: the card can only name the host the caller reached.
  if (LOOPBACK_ANY.has(u.hostname) && req.headers.host && /^[a-z0-9.\-[\]:]+$/i.test(req.headers.host))
    return `http://${req.headers.host}`;
  return bound;
}

/** True when the request carries no Origin, or the gateway's own. */
export function originAllowed(req: FastifyRequest, s: OriginSettings): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let o: string;
  try {
    o = new URL(origin).origin;
  } catch {
    return false;
  }
  const own = new Set([originOf(req, s), s.bound()].map((x) => new URL(x).origin));
  return own.has(o);
}

export function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
}

/**
 * Whether the request carries any credential: an Authorization header with something in it besides
 * the word Bearer (a token of another scheme counts; an empty header or the scheme alone does not).
 */
function credentialGiven(req: FastifyRequest): boolean {
  const h = req.headers.authorization;
  return typeof h === 'string' && h.replace(/^\s*bearer\b/i, '').trim() !== '';
}

export const NOT_FOUND_BODY = JSON.stringify({ error: 'not_found', message: 'No exposed capsule here.' });

export function sendNotFound(reply: FastifyReply) {
  return reply.code(404).header('content-type', 'application/json').send(NOT_FOUND_BODY);
}

export function sendUnauthorized(reply: FastifyReply, presented: boolean) {
  return reply
    .code(401)
    .header(
      'www-authenticate',
      presented ? 'Bearer realm="capsule-gateway", error="invalid_token"' : 'Bearer realm="capsule-gateway"',
    )
    .header('content-type', 'application/json')
    .send(
      JSON.stringify({
        error: 'unauthorized',
        message: presented
          ? 'The bearer token is not valid (revoked, rotated or mistyped).'
          : 'This gateway needs Authorization: Bearer <token>.',
      }),
    );
}

export function sendForbiddenOrigin(reply: FastifyReply) {
  return reply
    .code(403)
    .header('content-type', 'application/json')
    .send(JSON.stringify({ error: 'forbidden_origin', message: 'Browser calls from another origin are refused.' }));
}

/** The access log's outcome for a bearer token that opens nothing. */
export const WRONG_TOKEN = 'unauthorized: wrong token';

export type GuardResult =
  | { ok: true; exposure: ExposureInfo }
  | {
      ok: false;
      outcome: 'forbidden_origin' | 'unauthorized' | typeof WRONG_TOKEN | 'not_found';
      status: number;
      tokenId?: string;
    };

/** Applies the rules; when `capsule` is given the token must open that capsule (else 404). */
export function guard(
  req: FastifyRequest,
  reply: FastifyReply,
  store: ExposureStore,
  s: OriginSettings,
  capsule?: string,
): GuardResult {
  const token = bearerOf(req);
  const exposure = token ? store.authenticate(token) : undefined;
  if (!originAllowed(req, s)) {
    sendForbiddenOrigin(reply);
    // The log names the token the refused call carried, when it opens a capsule.
    return { ok: false, outcome: 'forbidden_origin', status: 403, ...(exposure ? { tokenId: exposure.tokenId } : {}) };
  }
  if (!exposure) {
    const presented = credentialGiven(req);
    sendUnauthorized(reply, presented);
    // The access log tells a caller that sent no token from one whose token is wrong (revoked, rotated, mistyped).
    return { ok: false, outcome: presented ? WRONG_TOKEN : 'unauthorized', status: 401 };
  }
  if (capsule !== undefined && exposure.capsule !== capsule) {
    sendNotFound(reply);
    return { ok: false, outcome: 'not_found', status: 404, tokenId: exposure.tokenId };
  }
  return { ok: true, exposure };
}
