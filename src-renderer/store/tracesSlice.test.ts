import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreClient } from '../../src-shared/contract';
import type { TraceEvent } from '../../src-shared/trace';
import { allRows, createTraceGrouper } from '../features/traces/traceRows';
import { setCoreClient } from './client';
import { useStudio } from './index';
import { foldTraceAppends } from './tracesSlice';

const SES = 'ses_00000000000000000000000000000001';
const initial = useStudio.getState();

// A burst: every line shares one millisecond, one type and one task; only its place tells them apart.
const line = (n: number): TraceEvent => ({ ts: '2026-01-01T00:00:00.000Z', event_type: 'frame', session_id: SES, task_id: 'tsk_1', n }) as unknown as TraceEvent;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => line(from + i));
const numbers = () => useStudio.getState().traces[SES].events.map((e) => (e as unknown as { n: number }).n);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** trace.appended as the core sends it: `first` is the line index of the batch's first line. */
const live = (from: number, to: number) => useStudio.setState((s) => foldTraceAppends(s, [{ sessionId: SES, capsuleId: 'writer', first: from, events: lines(from, to) }]));

/** A core whose trace.jsonl holds `file`; `onTail` runs as each trace.tail is read (lines landing meanwhile). */
function fakeTraceCore(file: TraceEvent[], onTail: (call: number) => unknown = () => {}): CoreClient {
  let calls = 0;
  return {
    async invoke(cmd, input) {
      if (cmd !== 'trace.tail') throw new Error(`unexpected ${cmd}`);
      const q = input as { after?: number; last?: number; limit?: number };
      const after = q.last !== undefined ? Math.max(0, file.length - q.last) : Math.min(q.after ?? 0, file.length);
      const events = file.slice(after, after + (q.limit ?? 2000));
      onTail(calls++);
      return { events, from: after, next: after + events.length } as never;
    },
    on: () => () => {},
    dispose() {},
  };
}

beforeEach(() => useStudio.setState(initial, true));
afterEach(() => setCoreClient(null));

describe('live trace joins history and live lines by line index', () => {
  it('opening the tab mid-burst neither drops nor repeats lines sharing one timestamp', async () => {
    // The Studio listened from line 1000; two batches arrived before the tab opened.
    live(1000, 1400);
    live(1400, 1800);
    // The history read sees the file up to line 2000, ahead of the live batches delivered so far.
    setCoreClient(fakeTraceCore(lines(0, 2000)));
    await useStudio.getState().openTrace(SES);
    expect(numbers()).toEqual(range(0, 2000));
    // The batch in flight during the read repeats lines 1800..1999: only its new lines count.
    live(1800, 2200);
    live(2200, 2600);
    expect(numbers()).toEqual(range(0, 2600));
    expect(useStudio.getState().traces[SES]).toMatchObject({ nextLine: 2600, backfilled: true, dropped: 0 });
  });

  it('keeps the live lines the history read had not reached yet', async () => {
    live(0, 300);
    setCoreClient(fakeTraceCore(lines(0, 100), () => live(300, 500)));
    await useStudio.getState().openTrace(SES);
    expect(numbers()).toEqual(range(0, 500));
  });

  it('reads on when the live lines start past the end of the history it read', async () => {
    live(1000, 1200);
    // The first read sees 600 lines; the rest of the file is written right after it.
    const file = lines(0, 600);
    setCoreClient(fakeTraceCore(file, (call) => call === 0 && file.push(...lines(600, 1200))));
    await useStudio.getState().openTrace(SES);
    expect(numbers()).toEqual(range(0, 1200));
  });

  it('loads only the last 100k lines of a long session and says how many came before', async () => {
    let calls = 0;
    setCoreClient(fakeTraceCore(lines(0, 250_000), () => calls++));
    await useStudio.getState().openTrace(SES);
    expect(numbers()).toEqual(range(150_000, 250_000));
    expect(useStudio.getState().traces[SES]).toMatchObject({ dropped: 150_000, nextLine: 250_000 });
    expect(calls).toBeLessThanOrEqual(11);
    live(250_000, 250_010);
    expect(numbers().at(-1)).toBe(250_009);
  });

  it('a batch delivered twice is folded once', () => {
    live(0, 50);
    live(0, 50);
    live(40, 60);
    expect(numbers()).toEqual(range(0, 60));
  });
});

describe('the line cap', () => {
  const cap = { max: 10, keep: 6 };
  const fold = (from: number, to: number) => useStudio.setState((s) => foldTraceAppends(s, [{ sessionId: SES, first: from, events: lines(from, to) }], cap));

  it('drops the oldest lines into a new array, so the grouper starts over on valid indexes', () => {
    const g = createTraceGrouper();
    fold(0, 8);
    const before = useStudio.getState().traces[SES].events;
    expect(g.update(before).count).toBe(9);
    fold(8, 12);
    const after = useStudio.getState().traces[SES];
    expect(after.events).not.toBe(before);
    expect(numbers()).toEqual(range(6, 12));
    expect(after).toMatchObject({ dropped: 6, nextLine: 12 });
    const rows = allRows(g.update(after.events));
    expect(rows).toEqual(allRows(createTraceGrouper().update(after.events)));
    expect(rows.every((r) => r.kind === 'group' || r.index < after.events.length)).toBe(true);
    // Under the cap again, lines are appended in place (no copy per batch).
    fold(12, 14);
    expect(useStudio.getState().traces[SES].events).toBe(after.events);
    expect(allRows(g.update(after.events))).toEqual(allRows(createTraceGrouper().update(after.events)));
  });
});
