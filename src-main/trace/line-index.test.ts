import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countTraceLines, readTraceLinesAt } from './line-index';
import { MAX_TRACE_LINE_BYTES } from './line';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-lines-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Lines as the slow, obvious reading sees them: split the whole file, parse what parses. */
function naive(text: string, after: number, limit: number) {
  const lines = text.split('\n');
  lines.pop();
  const events: unknown[] = [];
  let i = after;
  for (; i < lines.length && events.length < limit; i++) {
    try {
      events.push(JSON.parse(lines[i]));
    } catch {}
  }
  return { events, next: i };
}

const line = (i: number) =>
  i === 1500
    ? 'not json\n'
    : JSON.stringify({ event_type: 'note', i, text: `ligne ${i} — ünïcødé ✓ ${'é'.repeat(i % 7)}` }) + '\n';

describe('trace lines by index', () => {
  it('reads any slice the way a whole-file read does, across steps, with multi-byte text and a bad line', async () => {
    const path = join(dir, 'trace.jsonl');
    const text = Array.from({ length: 5000 }, (_, i) => line(i)).join('');
    writeFileSync(path, text + '{"event_type":"torn');
    expect(await countTraceLines(path)).toBe(5000);
    for (const [after, limit] of [
      [0, 10],
      [1023, 3],
      [1024, 1],
      [1499, 5],
      [2047, 2000],
      [4990, 100],
      [5000, 10],
      [7000, 10],
    ]) {
      const got = await readTraceLinesAt(path, { after, limit });
      const want = naive(text, Math.min(after, 5000), limit);
      expect(got.events).toEqual(want.events);
      expect(got.next).toBe(want.next);
    }
    // Past the read size: a read ends inside a line (and inside a character) and carries on.
    const big = join(dir, 'big.jsonl');
    const bigText = Array.from({ length: 60_000 }, (_, i) => line(i)).join('');
    writeFileSync(big, bigText);
    for (const after of [40_000, 45_000, 50_000, 59_990])
      expect(await readTraceLinesAt(big, { after, limit: 6000 })).toMatchObject(naive(bigText, after, 6000));
    const tail = await readTraceLinesAt(path, { last: 30, limit: 100 });
    expect(tail.from).toBe(4970);
    expect(tail.events).toEqual(naive(text, 4970, 100).events);
  });

  it('follows a growing file, and starts over on one that was replaced by a shorter one', async () => {
    const path = join(dir, 'trace.jsonl');
    writeFileSync(path, Array.from({ length: 2000 }, (_, i) => line(i)).join(''));
    expect((await readTraceLinesAt(path, { last: 1, limit: 1 })).events).toEqual([JSON.parse(line(1999))]);
    appendFileSync(path, Array.from({ length: 100 }, (_, i) => line(2000 + i)).join(''));
    expect(await countTraceLines(path)).toBe(2100);
    expect((await readTraceLinesAt(path, { after: 2050, limit: 1 })).events).toEqual([JSON.parse(line(2050))]);
    writeFileSync(path, line(7));
    expect(await countTraceLines(path)).toBe(1);
    expect((await readTraceLinesAt(path, { after: 0, limit: 5 })).events).toEqual([JSON.parse(line(7))]);
  });

  it('counts only the lines within a byte bound (what was written when the caller looked)', async () => {
    const path = join(dir, 'trace.jsonl');
    const first = Array.from({ length: 3000 }, (_, i) => line(i)).join('');
    writeFileSync(path, first + Array.from({ length: 500 }, (_, i) => line(3000 + i)).join(''));
    expect(await countTraceLines(path, Buffer.byteLength(first))).toBe(3000);
    expect(await countTraceLines(path)).toBe(3500);
    // Remembered positions past the bound are not used for it.
    expect(await countTraceLines(path, Buffer.byteLength(first))).toBe(3000);
  });

  it('lets the event loop run while it scans and reads a big file (it never holds the thread for the whole file)', async () => {
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, Array.from({ length: 80_000 }, (_, i) => line(i)).join(''));
    let turns = 0;
    let running = true;
    const spin = () => {
      turns++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const slice = await readTraceLinesAt(path, { last: 10_000, limit: 10_000 });
    running = false;
    expect(slice.events).toHaveLength(10_000);
    // A synchronous read would let no turn run before it returned.
    expect(turns).toBeGreaterThan(5);
  });

  it('skips and counts a line too long, nested too deep or claiming another session, each still a line', async () => {
    const path = join(dir, 'trace.jsonl');
    const own = (i: number) => JSON.stringify({ event_type: 'note', session_id: 'ses_own', i }) + '\n';
    const hostile = [
      `{"event_type":"note","session_id":"ses_own","x":"${'y'.repeat(MAX_TRACE_LINE_BYTES)}"}\n`,
      JSON.stringify({ event_type: 'session_start', session_id: 'ses_forged', capsule: 'forged' }) + '\n',
      `{"event_type":"note","session_id":"ses_own","x":${'['.repeat(300)}${']'.repeat(300)}}\n`,
    ];
    writeFileSync(path, own(0) + hostile.join('') + own(4));
    const slice = await readTraceLinesAt(path, { after: 1, limit: 10 }, 'ses_own');
    expect(slice.events).toEqual([JSON.parse(own(4))]);
    expect(slice.skipped).toEqual({ bad: 0, deep: 1, long: 1, foreign: 1 });
    expect(slice.next).toBe(5);
    expect((await readTraceLinesAt(path, { after: 4, limit: 1 }, 'ses_own')).events).toEqual([JSON.parse(own(4))]);
  });
});
