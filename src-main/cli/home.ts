import { join, resolve } from 'node:path';
// The layout module directly, not the runtime's index: ps/cancel/stop/trace must not load the
// whole runtime (fastify, drivers) just to find a folder.
import { recordsLayout } from '../runtime/layout';
import { createTraceStore, type TraceStore } from '../trace';

// Where the CLI finds records, running-session files and the trace index.

export function layout() {
  return recordsLayout(process.env);
}

/** The index for a records folder: studio.db in the capsule home, or inside a --records folder. */
export function openStore(records?: string): { store: TraceStore; records: string } {
  const l = layout();
  const dir = resolve(records ?? l.records);
  const dbPath = dir === resolve(l.records) ? join(l.home, 'studio.db') : join(dir, 'studio.db');
  return { store: createTraceStore({ path: dbPath }), records: dir };
}
