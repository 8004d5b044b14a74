import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import { createTraceWriter } from './writer';
import { syntheticSessionEvents } from './synthetic';

// A worker that starts, says it is ready, then stops (a crash, a killed thread): requests after
// that are still answered, on the caller's thread.
vi.mock('node:worker_threads', () => ({
  Worker: class extends EventEmitter {
    constructor() {
      super();
      setImmediate(() => {
        this.emit('message', { type: 'ready' });
        this.emit('exit', 1);
      });
    }
    postMessage() {}
    ref() {}
    unref() {}
    terminate() {
      return Promise.resolve(0);
    }
  },
}));

const { createTraceIndexer } = await import('./indexer');
const { createTraceStore } = await import('./store');

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('trace indexer after its worker stopped', () => {
  it('indexes in this thread instead of failing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'capsule-indexer-fallback-'));
    const id = newSessionId();
    const path = join(dir, 'records', id, 'trace.jsonl');
    const w = createTraceWriter(path, id);
    for (const e of syntheticSessionEvents({ tasks: 3 })) w.append(e);
    w.dispose();
    const indexer = createTraceIndexer({ path: join(dir, 'studio.db') });
    await indexer.ready;
    await new Promise((r) => setImmediate(r)); // the exit has been seen
    expect((await indexer.ingestFile(path)).added).toBe(32);
    expect((await indexer.syncRecords(join(dir, 'records'))).files).toBe(1);
    await indexer.dispose();
    await expect(indexer.ingestFile(path)).rejects.toThrow(/disposed/);
    const reader = createTraceStore({ path: join(dir, 'studio.db') });
    expect(reader.getSession(id)?.events).toBe(32);
    reader.dispose();
  });
});
