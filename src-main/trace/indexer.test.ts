import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import {
  createTraceIndexer,
  createTraceStore,
  createTraceWriter,
  type IndexProgress,
  type TraceIndexer,
  type TraceStore,
} from './index';
import { syntheticSessionEvents } from './synthetic';

let dir: string;
const open: { dispose(): unknown }[] = [];
const track = <T extends TraceIndexer | TraceStore>(x: T): T => (open.push(x), x);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-indexer-'));
});
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function session(tasks: number) {
  const id = newSessionId();
  const path = join(dir, 'records', id, 'trace.jsonl');
  const writer = createTraceWriter(path, id);
  return { id, path, writer, events: [...syntheticSessionEvents({ tasks, turns: 3, answerWord: 'heron' })] };
}

describe('trace indexer (worker thread)', () => {
  it('indexes on its own thread while this one keeps turning, with progress per batch', async () => {
    const s = session(5000); // ~13 MB: two ingest batches
    s.events.forEach((e) => s.writer.append(e));
    s.writer.dispose();
    const progress: IndexProgress[] = [];
    const indexer = track(
      createTraceIndexer({ path: join(dir, 'studio.db') }, { onProgress: (p) => progress.push(p) }),
    );
    await indexer.ready;
    let turns = 0;
    let stop = false;
    const spin = () => !stop && (turns++, setImmediate(spin));
    spin();
    const report = await indexer.ingestFile(s.path);
    stop = true;
    expect(report).toMatchObject({
      sessionId: s.id,
      added: s.events.length,
      skipped: { bad: 0, deep: 0, long: 0, foreign: 0 },
    });
    // A blocking ingest would have held this thread for the whole file.
    expect(turns).toBeGreaterThan(10);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0].done).toBeLessThan(progress[0].total);
    expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
    const reader = track(createTraceStore({ path: join(dir, 'studio.db') }));
    expect(reader.getSession(s.id)).toMatchObject({ events: s.events.length, tasks: 5000, status: 'ended' });
    expect(await reader.search('heron', { limit: 3 })).toHaveLength(3);
  });

  it('follows a file as it grows; idle() means every hint so far is indexed', async () => {
    const s = session(300);
    const indexer = track(createTraceIndexer({ path: join(dir, 'studio.db') }));
    const reader = track(createTraceStore({ path: join(dir, 'studio.db') }));
    for (let i = 0; i < s.events.length; i += 500) {
      s.events.slice(i, i + 500).forEach((e) => s.writer.append(e));
      s.writer.flushSync();
      indexer.follow(s.path);
    }
    await indexer.idle();
    expect(reader.getSession(s.id)?.events).toBe(s.events.length);
    expect(indexer.progress()).toBeNull();
    const more = { event_type: 'note', text: 'after' };
    s.writer.append(more);
    s.writer.dispose();
    indexer.follow(s.path);
    await indexer.idle();
    expect(reader.getSession(s.id)?.events).toBe(s.events.length + 1);
    // A synced records folder: the sync answers through the same worker.
    const sync = await indexer.syncRecords(join(dir, 'records'));
    expect(sync).toMatchObject({ files: 1, added: 0 });
  });

  it('reports an index that cannot open, and refuses requests instead of hanging', async () => {
    writeFileSync(join(dir, 'blocker'), 'a file where a folder should be');
    const indexer = track(createTraceIndexer({ path: join(dir, 'blocker', 'studio.db') }));
    await expect(indexer.ready).rejects.toThrow();
    await expect(indexer.ingestFile(join(dir, 'nothing.jsonl'))).rejects.toThrow();
    await indexer.idle();
  });

  it('answers a missing file with an error, and keeps working after it', async () => {
    const indexer = track(createTraceIndexer({ path: join(dir, 'studio.db') }));
    await expect(indexer.ingestFile(join(dir, 'records', 'ses_missing', 'trace.jsonl'))).rejects.toThrow(/ENOENT/);
    const s = session(2);
    s.events.forEach((e) => s.writer.append(e));
    s.writer.dispose();
    expect((await indexer.ingestFile(s.path)).added).toBe(s.events.length);
  });
});

describe('trace indexer shutdown', () => {
  it('stops a long ingest on dispose; the next index resumes from its last commit', async () => {
    const s = session(10_000); // ~26 MB: several batches
    s.events.forEach((e) => s.writer.append(e));
    s.writer.dispose();
    const db = join(dir, 'studio.db');
    const first = createTraceIndexer({ path: db }, { closeGraceMs: 0 });
    let committed = 0;
    const asked = first.ingestFile(s.path).catch((err: Error) => err);
    await new Promise<void>((ok) => {
      const t = setInterval(() => {
        if (first.progress()) {
          committed = first.progress()!.done;
          clearInterval(t);
          ok();
        }
      }, 5);
    });
    await first.dispose();
    expect(await asked).toBeInstanceOf(Error); // stopped, not left hanging
    const second = track(createTraceIndexer({ path: db }));
    const report = await second.ingestFile(s.path);
    expect(report.added).toBeLessThanOrEqual(s.events.length);
    expect(committed).toBeGreaterThan(0);
    const reader = track(createTraceStore({ path: db }));
    expect(reader.getSession(s.id)?.events).toBe(s.events.length);
    expect(reader.events(s.id, { types: ['task_end'], limit: 100_000 }).events).toHaveLength(10_000);
  });
});
