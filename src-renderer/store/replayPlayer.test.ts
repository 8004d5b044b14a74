import { describe, expect, it } from 'vitest';
import { createReplayPlayer, MAX_IDLE_MS, type ReplayClock } from './replayPlayer';

// The replay's clock, driven by a fake one: speed scales recorded gaps, pause keeps the place,
// step / step-to-hop / jump land on exact steps, instant shows the end.

function fakeClock() {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  const clock: ReplayClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      timers.push({ at: now + ms, run, id: ++ids });
      return ids;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  /** Moves time on by `ms`, firing every timer due on the way, in order. */
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const t = timers[0];
      if (!t || t.at > end) break;
      timers.shift();
      now = t.at;
      t.run();
    }
    now = end;
  };
  return { clock, advance, pending: () => timers.length };
}

// Steps recorded at 0, 100, 300, 1300 ms (epoch ms offsets).
const T0 = 1_700_000_000_000;
const times = [0, 100, 300, 1300].map((t) => T0 + t);

function setup() {
  const f = fakeClock();
  const seen: [number, boolean][] = [];
  const p = createReplayPlayer(times, (c, playing) => seen.push([c, playing]), f.clock);
  return { ...f, p, seen };
}

describe('replay player', () => {
  it('plays recorded gaps at 1×, and ends paused at the last step', () => {
    const { p, advance, pending } = setup();
    p.play();
    advance(0);
    expect(p.cursor).toBe(1);
    advance(99);
    expect(p.cursor).toBe(1);
    advance(1);
    expect(p.cursor).toBe(2);
    advance(200);
    expect(p.cursor).toBe(3);
    advance(999);
    expect(p.cursor).toBe(3);
    advance(1);
    expect(p.cursor).toBe(4);
    expect(p.playing).toBe(false);
    expect(pending()).toBe(0);
  });

  it('scales time by the chosen speed, also when changed while playing', () => {
    const { p, advance } = setup();
    p.setSpeed(10);
    p.play();
    advance(10);
    expect(p.cursor).toBe(2);
    advance(20);
    expect(p.cursor).toBe(3);
    // 0.25×: the 1000 ms gap left takes 4000 ms.
    p.setSpeed(0.25);
    advance(3999);
    expect(p.cursor).toBe(3);
    advance(1);
    expect(p.cursor).toBe(4);
  });

  it('pauses where it is and resumes from there', () => {
    const { p, advance, pending } = setup();
    p.play();
    advance(150);
    expect(p.cursor).toBe(2);
    p.pause();
    expect(pending()).toBe(0);
    advance(10_000);
    expect(p.cursor).toBe(2);
    p.play();
    // Resumes at the run time of step 2 (100 ms): step 3 is 200 ms on.
    advance(199);
    expect(p.cursor).toBe(2);
    advance(1);
    expect(p.cursor).toBe(3);
  });

  it('steps one step or to the next hop, and jumps by index or by time, paused', () => {
    const { p, seen } = setup();
    p.play();
    p.step();
    expect([p.cursor, p.playing]).toEqual([1, false]);
    p.step();
    expect(p.cursor).toBe(2);
    // Hops are steps 0 and 3: from 2 the next is 3 (played, so the cursor is 4).
    p.stepTo((i) => i === 0 || i === 3);
    expect(p.cursor).toBe(4);
    p.step();
    expect(p.cursor).toBe(4);
    p.jump(1);
    expect(p.cursor).toBe(1);
    p.jump(99);
    expect(p.cursor).toBe(4);
    p.jumpTime(300);
    expect(p.cursor).toBe(3);
    p.jumpTime(299);
    expect(p.cursor).toBe(2);
    p.jumpTime(-1);
    expect(p.cursor).toBe(0);
    expect(seen.at(-1)).toEqual([0, false]);
  });

  it('instant shows the end at once; play after the end starts over', () => {
    const { p, advance } = setup();
    p.setSpeed('instant');
    expect([p.cursor, p.playing]).toEqual([4, false]);
    p.play();
    expect([p.cursor, p.playing]).toEqual([4, false]);
    p.setSpeed(1);
    p.play();
    expect(p.cursor).toBe(0);
    advance(0);
    expect(p.cursor).toBe(1);
    p.setSpeed('instant');
    expect([p.cursor, p.playing]).toEqual([4, false]);
  });

  it('plays a long recorded pause as MAX_IDLE_MS, and jumps by recorded time across it', () => {
    const f = fakeClock();
    const p = createReplayPlayer([T0, T0 + 100, T0 + 600_100], () => undefined, f.clock);
    p.play();
    f.advance(100);
    expect(p.cursor).toBe(2);
    f.advance(MAX_IDLE_MS - 1);
    expect(p.cursor).toBe(2);
    f.advance(1);
    expect(p.cursor).toBe(3);
    p.jumpTime(600_099);
    expect(p.cursor).toBe(2);
  });
});
