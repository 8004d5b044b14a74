import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

// The gateway's access log: one entry per external call, kept in a ring for live views and
// appended to <dataDir>/gateway-access.jsonl. It names the token by its id, never the token.

export const ACCESS_LOG_FILE = 'gateway-access.jsonl';

export interface AccessEntry {
  time: string;
  remote: string;
  /** Id of the token that authenticated the call (null when none did). */
  tokenId: string | null;
  capsule: string | null;
  /** JSON-RPC method, or the card/route asked for (GET …). */
  method: string;
  status: number;
  /** ok, stream, a JSON-RPC error code (error -32602), unauthorized, forbidden_origin, not_found… */
  outcome: string;
  durationMs: number;
}

export interface AccessLog {
  record(entry: AccessEntry): void;
  recent(limit?: number): AccessEntry[];
  onAccess(listener: (entry: AccessEntry) => void): () => void;
}

export function createAccessLog(dataDir: string, capacity = 500): AccessLog {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, ACCESS_LOG_FILE);
  const ring: AccessEntry[] = [];
  const listeners = new Set<(e: AccessEntry) => void>();
  return {
    record(entry) {
      ring.push(entry);
      if (ring.length > capacity) ring.shift();
      try {
        appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      } catch {
        // A full disk must not fail the call; the ring still has the entry.
      }
      for (const l of listeners) {
        try {
          l(entry);
        } catch {}
      }
    },
    recent: (limit = capacity) => ring.slice(-limit),
    onAccess(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
