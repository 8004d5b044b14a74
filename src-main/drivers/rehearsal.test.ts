import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../src-shared/manifest';
import { createRehearsalDriver, matchesWhen } from './rehearsal';
import { AbortedError, InferenceError, type TurnRequest } from './types';

// The rehearsal driver: deterministic and offline, scripted per turn by the task text.

const driver = (rehearsal?: unknown) =>
  createRehearsalDriver(
    manifestSchema.parse({
      name: 'r',
      version: '1',
      inference: { driver: { artifact: 'capsule/driver-rehearsal' }, rehearsal },
    }),
  );
const req = (taskText: string, turn = 1, signal = new AbortController().signal): TurnRequest => ({
  messages: [{ role: 'user', content: taskText }],
  tools: [],
  turn,
  taskText,
  signal,
});

describe('rehearsal driver', () => {
  it('acknowledges by quoting the task text, with tokens estimated at 4 characters each', async () => {
    const r = await driver().turn(req('Acknowledge message from orchestrator capsule.'));
    expect(r).toEqual({
      text: 'Acknowledged: “Acknowledge message from orchestrator capsule.”',
      toolCalls: [],
      stopReason: 'end_turn',
      tokensIn: Math.ceil(46 / 4),
      tokensOut: Math.ceil(r.text.length / 4),
    });
  });

  it('picks the first reply whose `when` matches, as substring or /regex/', async () => {
    expect(matchesWhen('HELLO', 'say hello there')).toBe(true);
    expect(matchesWhen('/^say \\w+$/i', 'SAY hi')).toBe(true);
    expect(matchesWhen('/^x/', 'say')).toBe(false);
    expect(matchesWhen(undefined, 'anything')).toBe(true);
    const d = driver({
      replies: [
        { when: 'weather', turns: [{ text: 'sunny', tokens_in: 3, tokens_out: 1 }] },
        { turns: [{ text: 'fallback' }] },
      ],
    });
    expect(await d.turn(req('the Weather today'))).toMatchObject({ text: 'sunny', tokensIn: 3, tokensOut: 1 });
    expect((await d.turn(req('other'))).text).toBe('fallback');
  });

  it('plays tool calls with deterministic ids, then ends with the acknowledgement', async () => {
    const d = driver({ replies: [{ turns: [{ tool_calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b' }] }] }] });
    const t1 = await d.turn(req('job', 1));
    expect(t1.toolCalls).toEqual([
      { id: 'call_1_1', name: 'a', arguments: { x: 1 } },
      { id: 'call_1_2', name: 'b', arguments: {} },
    ]);
    expect(t1.stopReason).toBe('tool_use');
    expect((await d.turn(req('job', 2))).text).toBe('Acknowledged: “job”');
  });

  it('throws InferenceError for a scripted error and honours stop', async () => {
    const d = driver({ replies: [{ turns: [{ error: 'boom' }] }, { turns: [{ stop: 'max_tokens' }] }] });
    await expect(d.turn(req('x'))).rejects.toBeInstanceOf(InferenceError);
  });

  it('hangs until aborted, and delays abortably', async () => {
    const c = new AbortController();
    const hanging = driver({ replies: [{ turns: [{ hang: true }] }] }).turn(req('x', 1, c.signal));
    setTimeout(() => c.abort(), 10);
    await expect(hanging).rejects.toBeInstanceOf(AbortedError);
    const c2 = new AbortController();
    const slow = driver({ replies: [{ turns: [{ text: 'late', delay_ms: 60_000 }] }] }).turn(req('x', 1, c2.signal));
    c2.abort();
    await expect(slow).rejects.toBeInstanceOf(AbortedError);
    const start = Date.now();
    expect((await driver({ replies: [{ turns: [{ text: 'soon', delay_ms: 30 }] }] }).turn(req('x'))).text).toBe('soon');
    expect(Date.now() - start).toBeGreaterThanOrEqual(25);
  });

  it('streams a scripted number of text fragments at the scripted pace, then answers', async () => {
    const frames: string[] = [];
    const d = driver({ replies: [{ turns: [{ text: 'done', stream: { frames: 120, per_second: 2000 } }] }] });
    const start = performance.now();
    const r = await d.turn({ ...req('burst'), onFrame: (f) => f.kind === 'text' && frames.push(f.text) });
    // 120 fragments at 2000/s: the last is due after 59.5 ms.
    expect(performance.now() - start).toBeGreaterThanOrEqual(55);
    expect(frames).toHaveLength(120);
    expect(frames[0]).toBe('fragment 1 ');
    expect(frames[119]).toBe('fragment 120 ');
    expect(r.text).toBe('done');
  });

  it('sends the fragments a late wake owes a slice at a time, the event loop running between slices', async () => {
    // 3000 fragments all due within 3 ms, each taking the listener ~20 µs: one wake owes them all.
    const d = driver({ replies: [{ turns: [{ text: 'done', stream: { frames: 3000, per_second: 1_000_000 } }] }] });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const frames: string[] = [];
    const ticksAt: number[] = [];
    try {
      await d.turn({
        ...req('burst'),
        onFrame: (f) => {
          const until = performance.now() + 0.02;
          while (performance.now() < until);
          if (f.kind === 'text') frames.push(f.text);
          ticksAt.push(ticks);
        },
      });
    } finally {
      clearInterval(ticker);
    }
    expect(frames).toEqual(Array.from({ length: 3000 }, (_, i) => `fragment ${i + 1} `));
    // Timers ran while the owed fragments went out (the last wake's run is not one 60 ms block).
    const runs = new Set(ticksAt.slice(2)).size;
    expect(runs).toBeGreaterThan(3);
  });

  it('stops a stream when the task is canceled', async () => {
    const c = new AbortController();
    let n = 0;
    const d = driver({ replies: [{ turns: [{ stream: { frames: 1_000_000, per_second: 1000 } }] }] });
    const streaming = d.turn({ ...req('burst', 1, c.signal), onFrame: () => n++ === 20 && c.abort() });
    await expect(streaming).rejects.toBeInstanceOf(AbortedError);
    const stopped = n;
    await new Promise((r) => setTimeout(r, 30));
    expect(n).toBe(stopped);
    expect(n).toBeLessThan(100);
  });

  it('rejects a stream without a positive pace', () => {
    expect(() => driver({ replies: [{ turns: [{ stream: { frames: 10, per_second: 0 } }] }] })).toThrow();
    expect(() => driver({ replies: [{ turns: [{ stream: { frames: 10 } }] }] })).toThrow();
  });
});
