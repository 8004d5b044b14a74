import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTraceWriter } from './writer';

// Each write off the main thread is a round trip through the thread pool: the writer gathers the
// lines of many tasks into one write instead of one write per task (or per flush). Counted here
// by watching the file's writes; a write can be held in flight (its bytes not read yet) until the
// test lets it go.

const writes = vi.hoisted(() => ({ lengths: [] as number[], hold: false, held: [] as (() => void)[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const write = (
    fd: number,
    data: Buffer,
    offset: number,
    length: number,
    position: number,
    cb: (err: Error | null, n: number) => void,
  ) => {
    writes.lengths.push(length);
    const go = () => fs.write(fd, data, offset, length, position, cb);
    if (writes.hold) writes.held.push(go);
    else go();
  };
  return { ...fs, write, default: { ...fs, write } };
});

afterEach(() => {
  writes.lengths = [];
  writes.hold = false;
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

const task = (w: ReturnType<typeof createTraceWriter>, i: number) => {
  w.append({ event_type: 'task_start', task_id: `tsk_${i}` });
  w.append({ event_type: 'task_end', task_id: `tsk_${i}`, state: 'TASK_STATE_COMPLETED' });
  return w.flush();
};

describe('trace writer batching', () => {
  it('writes the lines of tasks ending in one turn, each flushed, in one write', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-batch-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    const ends = await Promise.all(Array.from({ length: 50 }, (_, i) => task(w, i)));
    expect(writes.lengths).toHaveLength(1);
    // Each flush still resolves with where its own task's lines end.
    const text = readFileSync(path);
    for (let i = 0; i < 50; i++) {
      const before = text.subarray(0, ends[i]).toString('utf8');
      expect(before.endsWith('\n')).toBe(true);
      expect(before.split('\n').length - 1).toBe(2 * (i + 1));
    }
    await w.close();
  });

  it('gathers the lines of the turns that run while a write is in flight into the next write', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-batch-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    writes.hold = true;
    const done: Promise<number>[] = [];
    for (let t = 0; t < 20; t++) {
      for (let i = 0; i < 5; i++) done.push(task(w, t * 5 + i));
      await turn();
    }
    // The first turn's lines are in flight; the other nineteen turns' wait for it.
    expect(writes.lengths).toHaveLength(1);
    writes.hold = false;
    writes.held.shift()!();
    await Promise.all(done);
    expect(writes.lengths).toHaveLength(2);
    await w.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).task_id)).toEqual(
      Array.from({ length: 100 }, (_, i) => [`tsk_${i}`, `tsk_${i}`]).flat(),
    );
  });
});

describe('trace writer buffers', () => {
  it('never fills a buffer again while a write still reads it, even one written meanwhile on the main thread', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-batch-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    writes.hold = true;
    const texts: string[] = [];
    const line = (text: string) => {
      texts.push(text);
      w.append({ event_type: 'frame', text });
    };
    line('first');
    await turn(); // its write is in flight, its bytes not read yet
    expect(writes.held).toHaveLength(1);
    w.flushSync(); // writes them here, at the same place
    // Many buffers' worth of lines, written here or handed over, while that write is still held.
    for (let i = 0; i < 3000; i++) {
      line(`line ${i} ${'x'.repeat(100)}`);
      if (i % 500 === 0) w.flushSync();
      if (i % 200 === 0) await turn();
    }
    w.flushSync();
    writes.hold = false;
    for (const go of writes.held.splice(0)) go(); // the old write lands now, reading its bytes only now
    await w.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l).text)).toEqual(texts);
  });
});
