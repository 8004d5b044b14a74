import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AccessEntryView } from '../../src-shared/contract';
import { createLineAppender } from '../trace';

// The gateway's access log: one entry per external call, kept in a ring for live views and
// appended to <dataDir>/gateway-access.jsonl (queued and written off the main thread: a hundred
// calls a second must not each wait on the disk). It names the token by its id, never the token: a
// caller may still put one where it does not belong (a query string, the path, a capsule name),
// so what the caller wrote is logged only as a shape — the path without its query or fragment,
// odd or long segments as `*` — and anything token-shaped is redacted before an entry is kept.

export const ACCESS_LOG_FILE = 'gateway-access.jsonl';

/** One external call (the token named by its id only); the contract's view is the one shape. */
export type AccessEntry = AccessEntryView;

export interface AccessLog {
  record(entry: AccessEntry): void;
  recent(limit?: number): AccessEntry[];
  onAccess(listener: (entry: AccessEntry) => void): () => void;
  /** Resolves once every entry recorded so far is in the file (the gateway awaits it on close). */
  flush(): Promise<void>;
}

/** Gateway tokens are `capsule_` and 43 base64url characters; a shorter run is still redacted. */
const TOKEN_SHAPE = /capsule_[A-Za-z0-9_-]{12,}/g;
/** A path segment logged as written: short, plain characters, nothing percent-encoded. */
const PLAIN_SEGMENT = /^[A-Za-z0-9._-]{1,40}$/;
const MAX_SEGMENTS = 8;

/** A text the caller chose (a capsule name, a method), safe to log: no token, nor the one presented. */
export function redactForLog(text: string, presented?: string): string {
  let out = text.replace(TOKEN_SHAPE, 'capsule_***');
  // The presented bearer, and its random part alone (a token pasted without its prefix).
  for (const t of presented ? [presented, presented.replace(/^capsule_/, '')] : []) {
    if (t.length >= 8 && out.includes(t)) out = out.split(t).join('***');
  }
  return out;
}

/** The request target as logged: the path only (query and fragment dropped), odd segments as `*`. */
export function pathForLog(url: string, presented?: string): string {
  const path = url.split(/[?#]/, 1)[0];
  const segments = path.split('/').slice(1);
  const shown = segments
    .slice(0, MAX_SEGMENTS)
    .map((seg) => (seg === '' || (PLAIN_SEGMENT.test(seg) && redactForLog(seg, presented) === seg) ? seg : '*'));
  const more = segments.length > MAX_SEGMENTS ? '/…' : '';
  const dropped = path.length < url.length ? ' (query dropped)' : '';
  return `/${shown.join('/')}${more}${dropped}`;
}

export function createAccessLog(dataDir: string, capacity = 500): AccessLog {
  mkdirSync(dataDir, { recursive: true });
  const file = createLineAppender(join(dataDir, ACCESS_LOG_FILE), { mode: 0o600 });
  const ring: AccessEntry[] = [];
  const listeners = new Set<(e: AccessEntry) => void>();
  return {
    record(raw) {
      // The last guard: whatever field carried it, nothing token-shaped is kept or written.
      const entry: AccessEntry = {
        ...raw,
        method: redactForLog(raw.method),
        capsule: raw.capsule === null ? null : redactForLog(raw.capsule),
      };
      ring.push(entry);
      if (ring.length > capacity) ring.shift();
      // A full disk must not fail the call; the ring still has the entry.
      file.append(JSON.stringify(entry));
      for (const l of listeners) {
        try {
          l(entry);
        } catch {}
      }
    },
    recent: (limit = capacity) => ring.slice(-limit),
    flush: () => file.flush(),
    onAccess(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
