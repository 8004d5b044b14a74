import { LOCALHOST_ADDRESSES, matchAllow } from '../../src-shared/manifest';

// The network policy of a capsule, applied to one place at a time. The pattern forms live in
// src-shared/manifest/allow.ts (the Studio's graph edits the same entries); this file adds what a
// connection needs: the scheme rule, a reason to show, and for the name localhost (never looked
// up through DNS) the loopback addresses the allow list actually permits.

export type PolicyVerdict =
  | {
      ok: true;
      pattern: string;
      /** For a target named localhost: the addresses it may connect to, in the order to try. */
      addresses?: string[];
    }
  | { ok: false; reason: string };

const urlAt = (u: URL, address: string) => {
  const copy = new URL(u.href);
  copy.hostname = address.includes(':') ? `[${address}]` : address;
  return copy;
};

export function checkTarget(url: string, allow: readonly string[], extraAllow: readonly string[] = []): PolicyVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { ok: false, reason: `scheme ${parsed.protocol} is not http(s)` };
  const match = (u: URL) => matchAllow(u, allow) ?? matchAllow(u, extraAllow);
  if (parsed.hostname.toLowerCase() === 'localhost') {
    // Each loopback address is its own place: only those an entry allows are tried.
    const addresses: string[] = [];
    let pattern: string | undefined;
    for (const a of LOCALHOST_ADDRESSES) {
      const p = match(urlAt(parsed, a));
      if (p === undefined) continue;
      pattern ??= p;
      addresses.push(a);
    }
    if (pattern) return { ok: true, pattern, addresses };
  } else {
    const pattern = match(parsed);
    if (pattern) return { ok: true, pattern };
  }
  return {
    ok: false,
    reason: allow.length ? `no entry of [${allow.join(', ')}] allows ${parsed.host}` : 'the allow list is empty',
  };
}

/**
 * The URLs fetch may connect to for an allowed place, in order: the URL itself, or for localhost
 * one per allowed loopback address (the next is tried only when one refuses the connection).
 */
export function connectUrls(url: string, verdict: Extract<PolicyVerdict, { ok: true }>): string[] {
  if (!verdict.addresses) return [url];
  const u = new URL(url);
  return verdict.addresses.map((a) => urlAt(u, a).href);
}
