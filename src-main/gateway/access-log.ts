import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AccessEntryView } from '../../src-shared/contract';

// The gateway's access log: one entry per external call, kept in a ring for live views and
// appended to <dataDir>/gateway-access.jsonl. It names the token by its id, never the token.

export const ACCESS_LOG_FILE = 'gateway-access.jsonl';

/** One external call (the token named by its id only); the contract's view is the one shape. */
export type AccessEntry = AccessEntryView;

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
