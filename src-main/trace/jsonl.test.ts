import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTraceLines, readTraceLinesAsync } from './jsonl';

// The asynchronous reader the main process uses at run time reads exactly what the synchronous one
// does: the same lines, offsets, bad lines and torn tail, whatever falls on the edge of a piece.

const dir = mkdtempSync(join(tmpdir(), 'capsule-jsonl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function traceFile(name: string, lines: string[], tail = ''): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => `${l}\n`).join('') + tail);
  return path;
}

describe('readTraceLinesAsync', () => {
  // Lines of varied length, some with multi-byte text, so that pieces of 512 KiB cut lines and characters.
  const lines = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ event_type: 'turn', seq: i, text: (i % 7 ? 'x' : 'é✓').repeat(50 + (i % 400)) }));
  lines.splice(100, 0, 'not json', '', '   ');
  const path = traceFile('big.jsonl', lines, '{"event_type":"tor');

  it('reads the same lines, bad lines and torn tail as the synchronous reader', async () => {
    const sync = readTraceLines(path);
    const async = await readTraceLinesAsync(path);
    expect(sync.lines.length).toBe(6000);
    expect(async).toEqual(sync);
    expect(async.bad).toHaveLength(1);
    expect(async.torn).toEqual({ offset: async.end, bytes: '{"event_type":"tor'.length });
  });

  it('stops at about maxBytes with whole lines, and starts where it is told', async () => {
    const first = await readTraceLinesAsync(path, 0, 700_000);
    expect(first).toEqual(readTraceLines(path, 0, 700_000));
    expect(first.end).toBeGreaterThanOrEqual(700_000);
    expect(first.torn).toBeUndefined();
    const rest = await readTraceLinesAsync(path, first.end);
    expect(rest).toEqual(readTraceLines(path, first.end));
    expect(first.lines.length + rest.lines.length).toBe(6000);
  });

  it('reads an empty file and a missing one as the synchronous reader does', async () => {
    expect(await readTraceLinesAsync(traceFile('empty.jsonl', []))).toEqual({ lines: [], end: 0, size: 0, torn: undefined, bad: [] });
    await expect(readTraceLinesAsync(join(dir, 'none.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});
