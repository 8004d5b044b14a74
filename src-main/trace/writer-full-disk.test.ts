import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTraceWriter } from './writer';

// The records folder's disk fills up under a running session: a write is cut short, the next
// ones fail with ENOSPC, then room comes back. The disk is simulated by a writeSync that takes
// only as many bytes as there is room for.

const disk = vi.hoisted(() => ({ room: Infinity }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = (fd: number, data: string | Buffer, offset?: number, length?: number) => {
    const from = offset ?? 0;
    const bytes =
      typeof data === 'string'
        ? Buffer.from(data)
        : data.subarray(from, length === undefined ? undefined : from + length);
    if (disk.room <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const n = Math.min(bytes.length, disk.room);
    disk.room -= n;
    return fs.writeSync(fd, bytes, 0, n);
  };
  return { ...fs, writeSync, default: { ...fs, writeSync } };
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
    w.flush();

    disk.room = 30; // the next line is cut short, then the disk is full
    w.append({ event_type: 'task_start', task_id: 'tsk_1', text: 'x'.repeat(100) });
    expect(() => w.flush()).not.toThrow();
    w.append({ event_type: 'inference', task_id: 'tsk_1' });
    expect(() => w.flush()).not.toThrow();
    // Both lines are counted lost (the cut-short one too), and the writer knows it is failing.
    expect(w.lostLines).toBe(2);
    expect(w.failing).toBe(true);
    expect(stderr.mock.calls.map(([line]) => String(line))).toEqual([
      `capsule: cannot write ${path} (ENOSPC: no space left on device, write); trace lines of session ses_full are lost until it can\n`,
    ]);

    disk.room = Infinity; // room again
    w.append({ event_type: 'task_end', task_id: 'tsk_1' });
    w.append({ event_type: 'session_end' });
    w.flush();
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
});
