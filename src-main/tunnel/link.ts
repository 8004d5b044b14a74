import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

// A tunnel's link token (the `?t=` of the link handed out once) and the cookie it is exchanged
// for. Both are the same signed shape, told apart by their kind so neither can stand in for the
// other: base64url(JSON claims) "." base64url(HMAC-SHA256). The key is made when the tunnel
// opens and lives only in the process that hosts it, so nothing on disk can forge or read one.

export type TokenKind = 'link' | 'cookie';

const claimsSchema = z.strictObject({
  k: z.enum(['link', 'cookie']),
  /** Tunnel id. */
  tid: z.string().max(40),
  /** Expiry, ms since the epoch. */
  exp: z.number().int().positive(),
  /** Random nonce: two links minted in the same millisecond differ. */
  n: z.string().max(40),
});
type Claims = z.infer<typeof claimsSchema>;

/** Longer than any token we mint: refused before any work. */
const MAX_TOKEN = 400;

export type Verified =
  | { ok: true; claims: Claims }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'wrong_kind' | 'other_tunnel' };

export interface LinkSigner {
  mint(kind: TokenKind, expiresAt: number): string;
  verify(token: string, kind: TokenKind, now?: number): Verified;
}

export function createLinkSigner(tunnelId: string, key: Buffer = randomBytes(32)): LinkSigner {
  const mac = (payload: string) => createHmac('sha256', key).update(payload, 'utf8').digest();
  return {
    mint(kind, expiresAt) {
      const claims: Claims = { k: kind, tid: tunnelId, exp: expiresAt, n: randomBytes(9).toString('base64url') };
      const payload = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    verify(token, kind, now = Date.now()) {
      if (token.length > MAX_TOKEN) return { ok: false, reason: 'malformed' };
      const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!m) return { ok: false, reason: 'malformed' };
      // The signature is checked first, in constant time: nothing of an unsigned payload is read.
      const given = Buffer.from(m[2], 'base64url');
      const expected = mac(m[1]);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, reason: 'bad_signature' };
      let claims: Claims;
      try {
        const parsed = claimsSchema.safeParse(JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')));
        if (!parsed.success) return { ok: false, reason: 'malformed' };
        claims = parsed.data;
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      if (claims.k !== kind) return { ok: false, reason: 'wrong_kind' };
      if (claims.tid !== tunnelId) return { ok: false, reason: 'other_tunnel' };
      if (claims.exp <= now) return { ok: false, reason: 'expired' };
      return { ok: true, claims };
    },
  };
}
