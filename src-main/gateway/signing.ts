import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  FlattenedSign,
  flattenedVerify,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';
import { canonicalCard, type AgentCard } from '../../src-shared/a2a';
import { canonicalJson } from './jcs';

// Signed agent cards (A2A 1.0 §8.4): the card's canonical form (without `signatures`, fields the
// AgentCard message does not have, or default values; see canonicalCard), serialised with JCS and
// signed as a JWS with a detached payload: the same bytes the official SDKs sign and verify. The Ed25519 key lives in the user's data folder
// (mode 0600); its kid is the RFC 7638 thumbprint of the public JWK.

export const SIGNING_KEY_FILE = 'card-signing-key.json';

export interface CardSigner {
  readonly kid: string;
  /** The public keys as a JWK Set (served at /.well-known/jwks.json). */
  jwks(): { keys: JWK[] };
  /** The card with one signature over its canonical form (any previous signatures dropped). */
  sign(card: AgentCard, jku?: string): Promise<AgentCard>;
}

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** The bytes a signature covers: the card's canonical form, JCS-serialised. */
export function signingPayload(card: AgentCard): string {
  return canonicalJson(canonicalCard(card));
}

async function loadOrCreateKey(dataDir: string): Promise<JWK> {
  const file = join(dataDir, SIGNING_KEY_FILE);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as JWK;
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  writeFileSync(file, JSON.stringify(jwk), { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above is ignored when the file already existed
  return jwk;
}

export async function createCardSigner(dataDir: string): Promise<CardSigner> {
  const privateJwk = await loadOrCreateKey(dataDir);
  const { d: _secret, ...publicJwk } = privateJwk;
  const kid = await calculateJwkThumbprint(publicJwk);
  const key = await importJWK({ ...privateJwk, alg: 'EdDSA' }, 'EdDSA');
  return {
    kid,
    jwks: () => ({ keys: [{ ...publicJwk, kid, alg: 'EdDSA', use: 'sig' }] }),
    async sign(card, jku) {
      const payload = new TextEncoder().encode(signingPayload(card));
      const jws = await new FlattenedSign(payload)
        .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JOSE', ...(jku ? { jku } : {}) })
        .sign(key);
      return { ...card, signatures: [{ protected: jws.protected!, signature: jws.signature }] };
    },
  };
}

export type CardVerification = { ok: true; kid: string } | { ok: false; reason: string };

/**
 * Verifies a card's signatures against a JWK Set: valid when at least one signature made by a key
 * of the set verifies over the card's canonical form (several signatures allow key rotation).
 */
export async function verifyCardSignature(card: AgentCard, jwks: { keys: JWK[] }): Promise<CardVerification> {
  const sigs = Array.isArray(card.signatures) ? card.signatures : [];
  if (sigs.length === 0) return { ok: false, reason: 'the card is not signed' };
  const payload = b64url(signingPayload(card));
  let reason = 'no signature was made by a key of the given set';
  for (const sig of sigs) {
    let header: { alg?: string; kid?: string };
    try {
      header = JSON.parse(Buffer.from(sig.protected, 'base64url').toString('utf8'));
    } catch {
      reason = 'a signature has an unreadable protected header';
      continue;
    }
    const jwk =
      jwks.keys.find((k) => k.kid === header.kid) ?? (jwks.keys.length === 1 && !header.kid ? jwks.keys[0] : undefined);
    if (!jwk || !header.alg) continue;
    try {
      const key = await importJWK(jwk, header.alg);
      await flattenedVerify({ protected: sig.protected, payload, signature: sig.signature }, key);
      return { ok: true, kid: header.kid ?? '' };
    } catch {
      reason = `the signature by key ${header.kid ?? '(no kid)'} does not match the card`;
    }
  }
  return { ok: false, reason };
}

/** The jku (JWK Set URL) a signature names, if any: where a remote card's keys can be fetched. */
export function signatureJku(card: AgentCard): string | undefined {
  for (const sig of card.signatures ?? []) {
    try {
      const h = JSON.parse(Buffer.from(sig.protected, 'base64url').toString('utf8')) as { jku?: unknown };
      if (typeof h.jku === 'string') return h.jku;
    } catch {}
  }
  return undefined;
}
