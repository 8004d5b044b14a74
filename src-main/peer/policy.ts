import { matchAllow } from '../../src-shared/manifest';

// The network policy of a capsule, applied to one place at a time. The pattern forms and the
// loopback equivalence live in src-shared/manifest/allow.ts (the Studio's graph edits the same
// entries); this file only adds what a connection needs: the scheme rule and a reason to show.

export type PolicyVerdict = { ok: true; pattern: string } | { ok: false; reason: string };

export function checkTarget(url: string, allow: readonly string[], extraAllow: readonly string[] = []): PolicyVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: `scheme ${parsed.protocol} is not http(s)` };
  const pattern = matchAllow(parsed, allow) ?? matchAllow(parsed, extraAllow);
  if (pattern) return { ok: true, pattern };
  return { ok: false, reason: allow.length ? `no entry of [${allow.join(', ')}] allows ${parsed.host}` : 'the allow list is empty' };
}

/**
 * The URL fetch actually connects to. "localhost" is never resolved through DNS: the policy treats
 * it as this machine's loopback, so the connection goes to 127.0.0.1 itself.
 */
export function connectUrl(url: string): string {
  const u = new URL(url);
  if (u.hostname.toLowerCase() === 'localhost') u.hostname = '127.0.0.1';
  return u.href;
}
