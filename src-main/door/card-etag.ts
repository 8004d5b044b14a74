import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Conditional GETs for agent cards (A2A: card endpoints SHOULD send Cache-Control and an ETag;
// clients revalidate with If-None-Match). The tag is a hash of the exact bytes served, so it
// changes whenever the card does (a new port, a signature, a capability) and never otherwise.

/** A strong entity tag for a body: a quoted, truncated SHA-256. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** True when an If-None-Match header names this tag (weak comparison, as RFC 9110 says for GET), or is `*`. */
export function matchesIfNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  const wanted = strip(etag);
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .some((t) => t.trim() === '*' || strip(t) === wanted);
}

/** True when If-Modified-Since is a date no earlier than `lastModified` (both HTTP dates, 1 s resolution). */
export function notModifiedSince(header: string | undefined, lastModified: string): boolean {
  const since = header ? Date.parse(header) : Number.NaN;
  return Number.isFinite(since) && since >= Date.parse(lastModified);
}

/**
 * Sends a JSON card with its ETag and Cache-Control (and Last-Modified when known), or 304 Not
 * Modified (no body, same headers) when the caller already holds this version. If-None-Match
 * wins over If-Modified-Since when both are sent, as RFC 9110 says.
 */
export function sendCard(
  req: FastifyRequest,
  reply: FastifyReply,
  json: string,
  cacheControl: string,
  etag = etagOf(json),
  lastModified?: string,
): FastifyReply {
  reply.header('etag', etag).header('cache-control', cacheControl);
  if (lastModified) reply.header('last-modified', lastModified);
  const inm = req.headers['if-none-match'];
  const fresh =
    inm !== undefined
      ? matchesIfNoneMatch(inm, etag)
      : !!lastModified && notModifiedSince(req.headers['if-modified-since'], lastModified);
  if (fresh) return reply.code(304).send();
  return reply.header('content-type', 'application/json').send(json);
}
