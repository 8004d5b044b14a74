import type { AgentCard } from '../../src-shared/a2a';
import { signatureJku, verifyCardSignature } from './signing';

// Verifying a remote agent's card when the Studio adds it: the keys come from the JWK Set the
// signature names (jku) when it sits on the card's own origin, else from <origin>/.well-known/jwks.json.
// A key from elsewhere would let whoever altered the card vouch for it.

export interface RemoteCardSignature {
  state: 'verified' | 'unsigned' | 'invalid' | 'unverifiable';
  kid?: string;
  message: string;
}

export async function verifyRemoteCard(
  card: AgentCard,
  cardUrl: string,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 5000,
): Promise<RemoteCardSignature> {
  if (!Array.isArray(card.signatures) || card.signatures.length === 0)
    return { state: 'unsigned', message: 'The card is not signed.' };
  const origin = new URL(cardUrl).origin;
  const jku = signatureJku(card);
  const keysUrl = jku && URL.canParse(jku) && new URL(jku).origin === origin ? jku : `${origin}/.well-known/jwks.json`;
  let jwks: { keys: [] };
  try {
    const res = await fetchImpl(keysUrl, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!res.ok)
      return {
        state: 'unverifiable',
        message: `The card is signed, but its keys at ${keysUrl} answered HTTP ${res.status}.`,
      };
    jwks = (await res.json()) as { keys: [] };
    if (!Array.isArray(jwks?.keys)) return { state: 'unverifiable', message: `${keysUrl} is not a JWK Set.` };
  } catch (err) {
    return {
      state: 'unverifiable',
      message: `The card is signed, but its keys could not be fetched from ${keysUrl}: ${(err as Error).message}`,
    };
  }
  const v = await verifyCardSignature(card, jwks);
  return v.ok
    ? { state: 'verified', kid: v.kid, message: `Signature verified (key ${v.kid}).` }
    : { state: 'invalid', message: `The card's signature does not verify: ${v.reason}.` };
}
