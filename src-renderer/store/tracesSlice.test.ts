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
const line = (n: number): TraceEvent =>
  ({
    ts: '2026-01-01T00:00:00.000Z',
    event_type: 'frame',
    session_id: SES,
    task_id: 'tsk_1',
    n,
  }) as unknown as TraceEvent;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => line(from + i));
const numbers = () => useStudio.getState().traces[SES].events.map((e) => (e as unknown as { n: number }).n);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** trace.appended as the core sends it: `first` is the line index of the batch's first line. */
const live = (from: number, to: number) =>
  useStudio.setState((s) =>
    foldTraceAppends(s, [{ sessionId: SES, capsuleId: 'writer', first: from, events: lines(from, to) }]),
  );

/** Commands the fake core was asked, in order (trace.follow, trace.unfollow, trace.tail). */
let asked: { cmd: string; sessionId: string }[] = [];

/**
 * A core whose trace.jsonl holds `file`; `onFollow` runs as the follow is answered (live lines
 * arriving before the history is read), `onTail` as each trace.tail is read (lines landing meanwhile).
 */
function fakeTraceCore(
  file: TraceEvent[],
  onTail: (call: number) => unknown = () => {},
  onFollow: () => unknown = () => {},
): CoreClient {
  let calls = 0;
  return {
    async invoke(cmd, input) {
      asked.push({ cmd, sessionId: (input as { sessionId: string }).sessionId });
      if (cmd === 'trace.follow' || cmd === 'trace.unfollow') {
        if (cmd === 'trace.follow') onFollow();
        return { following: 1, max: 64 } as never;
      }
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

beforeEach(() => {
  useStudio.setState(initial, true);
  asked = [];
});
afterEach(() => setCoreClient(null));

describe('live trace joins history and live lines by line index', () => {
  it('opening the tab mid-burst neither drops nor repeats lines sharing one timestamp', async () => {
    // Following from line 1000; two batches arrive before the history is read.
    // The history read sees the file up to line 2000, ahead of the live batches delivered so far.
    setCoreClient(fakeTraceCore(lines(0, 2000), undefined, () => (live(1000, 1400), live(1400, 1800))));
    await useStudio.getState().openTrace(SES);
    expect(numbers()).toEqual(range(0, 2000));
    // The batch in flight during the read repeats lines 1800..1999: only its new lines count.
    live(1800, 2200);
    live(2200, 2600);
    expect(numbers()).toEqual(range(0, 2600));
    expect(useStudio.getState().traces[SES]).toMatchObject({ nextLine: 2600, backfilled: true, dropped: 0 });
  });

  it('keeps the live lines the history read had not reached yet', async () => {
    setCoreClient(
      fakeTraceCore(
        lines(0, 100),
        () => live(300, 500),
        () => live(0, 300),
      ),
    );
    await useStudio.getState().openTrace(SES);
    expect(numbers()).toEqual(range(0, 500));
  });

  it('reads on when the live lines start past the end of the history it read', async () => {
    // The first read sees 600 lines; the rest of the file is written right after it.
    const file = lines(0, 600);
    setCoreClient(
      fakeTraceCore(
        file,
        (call) => call === 0 && file.push(...lines(600, 1200)),
        () => live(1000, 1200),
      ),
    );
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
    useStudio.setState({ traceSessionId: SES });
    live(0, 50);
    live(0, 50);
    live(40, 60);
    expect(numbers()).toEqual(range(0, 60));
  });
});

describe('the view follows its session while it is open', () => {
  const OTHER = 'ses_00000000000000000000000000000002';

  it('follows before reading history, keeps no lines of a session not shown, and lets go on close', async () => {
    setCoreClient(fakeTraceCore(lines(0, 10)));
    live(0, 5); // nobody shows SES yet: not kept
    expect(useStudio.getState().traces[SES]).toBeUndefined();
    await useStudio.getState().openTrace(SES);
    expect(asked.map((a) => a.cmd)).toEqual(['trace.follow', 'trace.tail']);
    live(10, 20);
    useStudio.setState((s) => foldTraceAppends(s, [{ sessionId: OTHER, first: 0, events: lines(0, 3) }]));
    expect(numbers()).toEqual(range(0, 20));
    expect(useStudio.getState().traces[OTHER]).toBeUndefined();

    // Another session: the first is unfollowed and its lines dropped.
    await useStudio.getState().openTrace(OTHER);
    expect(asked.slice(2).map((a) => `${a.cmd} ${a.sessionId}`)).toEqual([
      `trace.unfollow ${SES}`,
      `trace.follow ${OTHER}`,
      `trace.tail ${OTHER}`,
    ]);
    expect(useStudio.getState().traces[SES]).toBeUndefined();
    // A batch of the old session still on its way is not kept.
    live(20, 30);
    expect(useStudio.getState().traces[SES]).toBeUndefined();

    useStudio.getState().closeTrace(OTHER);
    expect(asked.at(-1)).toEqual({ cmd: 'trace.unfollow', sessionId: OTHER });
    expect(useStudio.getState()).toMatchObject({ traceSessionId: null, traces: {} });
  });

  it('a view closed while the history is read keeps nothing', async () => {
    setCoreClient(fakeTraceCore(lines(0, 10), () => useStudio.getState().closeTrace(SES)));
    await useStudio.getState().openTrace(SES);
    expect(useStudio.getState()).toMatchObject({ traceSessionId: null, traces: {} });
  });

  it('after a reconnect follows the open session again and reads it afresh', async () => {
    const file = lines(0, 10);
    setCoreClient(fakeTraceCore(file));
    await useStudio.getState().openTrace(SES);
    file.push(...lines(10, 15)); // written while the link was down
    await useStudio.getState().refollowTrace();
    expect(asked.map((a) => a.cmd)).toEqual(['trace.follow', 'trace.tail', 'trace.follow', 'trace.tail']);
    expect(numbers()).toEqual(range(0, 15));
  });
});

describe('the line cap', () => {
  const cap = { max: 10, keep: 6 };
  const fold = (from: number, to: number) =>
    useStudio.setState((s) => foldTraceAppends(s, [{ sessionId: SES, first: from, events: lines(from, to) }], cap));

  it('drops the oldest lines into a new array, so the grouper starts over on valid indexes', () => {
    useStudio.setState({ traceSessionId: SES });
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
