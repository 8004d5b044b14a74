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
  return (Array.isArray(header) ? header.join(',') : header).split(',').some((t) => t.trim() === '*' || strip(t) === wanted);
}

/**
 * Sends a JSON card with its ETag and Cache-Control, or 304 Not Modified (no body, same
 * headers) when the caller already holds this version.
 */
export function sendCard(req: FastifyRequest, reply: FastifyReply, json: string, cacheControl: string, etag = etagOf(json)): FastifyReply {
  reply.header('etag', etag).header('cache-control', cacheControl);
  if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.header('content-type', 'application/json').send(json);
}
