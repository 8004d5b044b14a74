import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, test } from '@playwright/test';

// The desktop build (out/, made by scripts/e2e.js before this run) carries the trace index's
// worker thread as its own file next to the main bundle; the main process starts it from there.
// Electron cannot launch here, so this starts the built worker under Node and has it index a trace.

test('the built trace index worker opens the index and indexes a trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-built-worker-'));
  const id = `ses_${'a'.repeat(32)}`;
  const trace = join(dir, 'records', id, 'trace.jsonl');
  mkdirSync(join(dir, 'records', id), { recursive: true });
  const line = (e: object) => JSON.stringify({ ts: new Date().toISOString(), session_id: id, ...e });
  writeFileSync(
    trace,
    [
      line({ event_type: 'session_start', capsule: 'built' }),
      line({ event_type: 'session_end', reason: 'stopped' }),
    ].join('\n') + '\n',
  );
  const worker = new Worker(resolve(__dirname, '..', 'out', 'main', 'trace-index-worker.js'), {
    workerData: { path: join(dir, 'studio.db') },
  });
  try {
    const replies: { type: string; result?: { added: number; sessionId: string } }[] = [];
    const done = new Promise<void>((ok, fail) => {
      worker.on('error', fail);
      worker.on('message', (m: (typeof replies)[number]) => {
        replies.push(m);
        if (m.type === 'ready') worker.postMessage({ type: 'ingest', id: 1, path: trace });
        if (m.type === 'done' || m.type === 'error' || m.type === 'failed') ok();
      });
    });
    await done;
    expect(replies.find((r) => r.type === 'done')?.result).toMatchObject({ sessionId: id, added: 2 });
  } finally {
    await worker.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
});
