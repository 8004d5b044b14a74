import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTraceWriter } from './writer';

// The records folder's disk fills up under a running session: a write is cut short, the next
// ones fail with ENOSPC, then room comes back. The disk is simulated by writes (sync and async) that take
// only as many bytes as there is room for.

const disk = vi.hoisted(() => ({ room: Infinity }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const take = (data: Buffer, offset: number, length: number) => {
    const bytes = data.subarray(offset, offset + length);
    if (disk.room <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const n = Math.min(bytes.length, disk.room);
    disk.room -= n;
    return bytes.subarray(0, n);
  };
  const writeSync = (fd: number, data: Buffer, offset: number, length: number, position: number) =>
    fs.writeSync(fd, take(data, offset, length), 0, undefined, position);
  const write = (
    fd: number,
    data: Buffer,
    offset: number,
    length: number,
    position: number,
    cb: (err: Error | null, n: number) => void,
  ) => {
    let bytes: Buffer;
    try {
      bytes = take(data, offset, length);
    } catch (err) {
      setImmediate(() => cb(err as Error, 0));
      return;
    }
    fs.write(fd, bytes, 0, bytes.length, position, cb);
  };
  return { ...fs, writeSync, write, default: { ...fs, writeSync, write } };
});

afterEach(() => {
  disk.room = Infinity;
  vi.restoreAllMocks();
});

describe('trace writer on a full disk', () => {
  it('keeps the session going, says so once, and keeps every line it wrote whole', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const path = join(mkdtempSync(join(tmpdir(), 'trace-full-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_full');
    expect(w.written).toBe(0); // from now on it counts what reaches the file (the index reads by offset)
    w.append({ event_type: 'session_start' });
    w.flushSync();

    disk.room = 30; // the next line is cut short, then the disk is full
    w.append({ event_type: 'task_start', task_id: 'tsk_1', text: 'x'.repeat(100) });
    expect(() => w.flushSync()).not.toThrow();
    w.append({ event_type: 'inference', task_id: 'tsk_1' });
    expect(() => w.flushSync()).not.toThrow();
    // Both lines are counted lost (the cut-short one too), and the writer knows it is failing.
    expect(w.lostLines).toBe(2);
    expect(w.failing).toBe(true);
    expect(stderr.mock.calls.map(([line]) => String(line))).toEqual([
      `capsule: cannot write ${path} (ENOSPC: no space left on device, write); trace lines of session ses_full are lost until it can\n`,
    ]);

    disk.room = Infinity; // room again
    w.append({ event_type: 'task_end', task_id: 'tsk_1' });
    w.append({ event_type: 'session_end' });
    w.flushSync();
    expect(w.failing).toBe(false);
    expect(w.written).toBe(readFileSync(path).length);
    expect(() => w.dispose()).not.toThrow();

    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    // The cut-short line stays a fragment of its own that readers skip; the lines after it read.
    expect(
      lines
        .slice(0, -1)
        .map((l) => (l.startsWith('{"ts"') && l.endsWith('}') ? JSON.parse(l).event_type : `fragment of ${l.length}`)),
    ).toEqual(['session_start', 'fragment of 30', 'task_end', 'session_end']);
  });

  it('loses only the lines of a failed write off the main thread, and the next ones start on a line of their own', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const path = join(mkdtempSync(join(tmpdir(), 'trace-full-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_full');
    w.append({ event_type: 'session_start' });
    await w.flush();
    disk.room = 30;
    w.append({ event_type: 'task_start', task_id: 'tsk_1', text: 'x'.repeat(100) });
    await w.flush();
    expect(w.lostLines).toBe(1);
    expect(w.failing).toBe(true);
    disk.room = Infinity;
    w.append({ event_type: 'task_end', task_id: 'tsk_1' });
    expect(await w.flush()).toBe(readFileSync(path).length);
    expect(w.failing).toBe(false);
    await w.close();
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .slice(0, -1)
        .map((l) => (l.endsWith('}') ? JSON.parse(l).event_type : `fragment of ${l.length}`)),
    ).toEqual(['session_start', 'fragment of 30', 'task_end']);
  });
});
