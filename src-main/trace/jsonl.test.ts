import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTraceLines, readTraceLinesAsync, readTraceRanges, readTraceRangesAsync } from './jsonl';
import { MAX_TRACE_LINE_BYTES } from './line';

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
  const lines = Array.from({ length: 6000 }, (_, i) =>
    JSON.stringify({ event_type: 'turn', seq: i, text: (i % 7 ? 'x' : 'é✓').repeat(50 + (i % 400)) }),
  );
  lines.splice(100, 0, 'not json', '', '   ');
  const path = traceFile('big.jsonl', lines, '{"event_type":"tor');

  it('reads the same lines, bad lines and torn tail as the synchronous reader', async () => {
    const sync = readTraceLines(path);
    const async = await readTraceLinesAsync(path);
    expect(sync.lines.length).toBe(6000);
    expect(async).toEqual(sync);
    expect(async.skipped).toEqual({ bad: 1, deep: 0, long: 0, foreign: 0 });
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
    expect(await readTraceLinesAsync(traceFile('empty.jsonl', []))).toEqual({
      lines: [],
      end: 0,
      size: 0,
      torn: undefined,
      skipped: { bad: 0, deep: 0, long: 0, foreign: 0 },
    });
    await expect(readTraceLinesAsync(join(dir, 'none.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});

describe('the readers skip and count what line.ts refuses', () => {
  const S = 'ses_own';
  const ev = (session: string, i: number) => JSON.stringify({ ts: 't', event_type: 'note', session_id: session, i });
  // Over the limit, in one piece of the synchronous reader and across many of the asynchronous one.
  const long = `{"event_type":"note","session_id":"${S}","x":"${'y'.repeat(MAX_TRACE_LINE_BYTES)}"}`;
  const deep = `{"event_type":"note","session_id":"${S}","x":${'['.repeat(300)}${']'.repeat(300)}}`;
  const path = traceFile('hostile.jsonl', [
    ev(S, 0),
    long,
    ev('ses_forged', 1),
    deep,
    ev(S, 2),
    '{"event_type":"note","i":3}',
  ]);

  it('reads the file own lines only, counting a long, a deep and a foreign one', async () => {
    for (const chunk of [readTraceLines(path), await readTraceLinesAsync(path)]) {
      expect(chunk.lines.map((l) => l.event.i)).toEqual([0, 2, 3]);
      expect(chunk.skipped).toEqual({ bad: 0, deep: 1, long: 1, foreign: 1 });
      expect(chunk.session).toBe(S);
      expect(chunk.torn).toBeUndefined();
      expect(chunk.lines[1].offset).toBe(ev(S, 0).length + long.length + ev('ses_forged', 1).length + deep.length + 4);
    }
    // Read from the middle, the file's session comes from the caller.
    const mid = readTraceLines(path, ev(S, 0).length + 1, Infinity, 'ses_forged');
    expect(mid.lines.map((l) => l.event.i)).toEqual([1, 3]);
  });

  it('reports a long line still without its newline as torn, not as skipped', async () => {
    const torn = traceFile('long-torn.jsonl', [ev(S, 0)], long);
    for (const chunk of [readTraceLines(torn), await readTraceLinesAsync(torn)]) {
      expect(chunk.lines).toHaveLength(1);
      expect(chunk.skipped.long).toBe(0);
      expect(chunk.torn).toEqual({ offset: ev(S, 0).length + 1, bytes: long.length });
    }
  });
});

describe('readTraceRangesAsync', () => {
  // Lines the index points at: short ones, multi-byte text, and a run of adjacent long lines
  // longer together than one bounded read.
  const lines = [
    '{"a":1}',
    '{"text":"héllo wörld ✓"}',
    ...Array.from({ length: 3 }, (_, i) => `{"big":"${String(i).repeat(700 * 1024)}"}`),
    '{"z":"last"}',
  ];
  const path = traceFile('ranges.jsonl', lines);
  const ranges: { off: number; len: number }[] = [];
  for (let off = 0, i = 0; i < lines.length; i++) {
    const len = Buffer.byteLength(lines[i]);
    ranges.push({ off, len });
    off += len + 1;
  }

  it('reads every range as the synchronous reader does, adjacent runs over the read bound included', async () => {
    expect(await readTraceRangesAsync(path, ranges)).toEqual(lines);
    expect(await readTraceRangesAsync(path, ranges)).toEqual(readTraceRanges(path, ranges));
  });

  it('reads ranges with gaps between them, and none', async () => {
    const picked = [ranges[0], ranges[2], ranges[5]];
    expect(await readTraceRangesAsync(path, picked)).toEqual([lines[0], lines[2], lines[5]]);
    expect(await readTraceRangesAsync(path, [])).toEqual([]);
  });

  it('rejects for a missing file as the synchronous reader throws', async () => {
    const missing = join(dir, 'none.jsonl');
    expect(() => readTraceRanges(missing, ranges)).toThrow(/ENOENT/);
    await expect(readTraceRangesAsync(missing, ranges)).rejects.toThrow(/ENOENT/);
  });
});
