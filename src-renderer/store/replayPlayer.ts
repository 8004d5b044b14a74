// The replay's clock: which recorded steps have played, moved by time at a chosen speed, by a
// step, or by a jump. Pure apart from the clock it is given, so tests drive it with a fake one.

/** How fast the recording plays: a factor of recorded time (0.25 … 10), or everything at once (choosing it shows the end). */
export type ReplaySpeed = number | 'instant';
export const REPLAY_SPEEDS: ReplaySpeed[] = [0.25, 0.5, 1, 2, 5, 10, 'instant'];
/** Bounds a chosen factor: slower than this a replay barely moves, faster it is a jump. */
export const MIN_SPEED = 0.05;
export const MAX_SPEED = 100;
/** A recorded pause longer than this plays as this long (at 1×). */
export const MAX_IDLE_MS = 5000;

export interface ReplayClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: ReplayClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface ReplayPlayer {
  /** Steps played so far: 0 (none) … times.length (all). */
  readonly cursor: number;
  readonly playing: boolean;
  readonly speed: ReplaySpeed;
  play(): void;
  pause(): void;
  setSpeed(speed: ReplaySpeed): void;
  /** Plays the next step (paused). */
  step(): void;
  /** Plays up to and including the next step `is` accepts (a hop); to the end when none does. */
  stepTo(is: (index: number) => boolean): void;
  /** Shows the run as it stood after `cursor` steps (paused). */
  jump(cursor: number): void;
  /** Shows the run as it stood `ms` after its first step (paused). */
  jumpTime(ms: number): void;
  dispose(): void;
}

/**
 * `times`: each step's recorded epoch ms, in order. `onCursor` hears every move (several steps due
 * in one tick move once). Time plays from the step where play started, so a pause keeps its place.
 */
export function createReplayPlayer(
  times: readonly number[],
  onCursor: (cursor: number, playing: boolean) => void,
  clock: ReplayClock = realClock,
): ReplayPlayer {
  const n = times.length;
  // Play time: recorded time with every pause over MAX_IDLE_MS shortened to it (between two tasks
  // of a long session, say), so playing never waits minutes for nothing. Jumps by time use recorded time.
  const play: number[] = [];
  for (let i = 0; i < n; i++)
    play.push(i === 0 ? 0 : play[i - 1] + Math.min(MAX_IDLE_MS, Math.max(0, times[i] - times[i - 1])));
  const t0 = times[0] ?? 0;
  let cursor = 0;
  let playing = false;
  let speed: ReplaySpeed = 1;
  let timer: unknown;
  /** While playing: the wall time and play time (ms) play resumed at. */
  let anchor = { wall: 0, run: 0 };

  const runNow = () => anchor.run + (clock.now() - anchor.wall) * (speed === 'instant' ? Infinity : speed);
  const stopTimer = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  const clamp = (to: number) => Math.max(0, Math.min(n, Math.round(to)));
  const schedule = () => {
    stopTimer();
    if (!playing) return;
    const due = (play[cursor] - runNow()) / (speed as number);
    timer = clock.setTimeout(tick, Math.max(0, due));
  };
  const tick = () => {
    timer = undefined;
    if (!playing) return;
    const at = runNow();
    let to = cursor;
    while (to < n && play[to] <= at) to++;
    // At least one step per tick, so a clock that fires early still moves.
    cursor = clamp(Math.max(to, cursor + 1));
    if (cursor >= n) playing = false;
    onCursor(cursor, playing);
    schedule();
  };
  const stopAt = (to: number) => {
    playing = false;
    stopTimer();
    cursor = clamp(to);
    onCursor(cursor, false);
  };

  return {
    get cursor() {
      return cursor;
    },
    get playing() {
      return playing;
    },
    get speed() {
      return speed;
    },
    play() {
      if (playing) return;
      if (speed === 'instant' || cursor >= n) {
        // Instant shows the end; played to the end, play starts over.
        if (speed === 'instant') return stopAt(n);
        cursor = 0;
      }
      playing = true;
      anchor = { wall: clock.now(), run: cursor > 0 ? play[cursor - 1] : 0 };
      onCursor(cursor, true);
      schedule();
    },
    pause() {
      if (!playing) return;
      playing = false;
      stopTimer();
      onCursor(cursor, false);
    },
    setSpeed(next) {
      const s = next === 'instant' ? next : Math.min(MAX_SPEED, Math.max(MIN_SPEED, Number.isFinite(next) ? next : 1));
      if (playing) anchor = { wall: clock.now(), run: runNow() };
      speed = s;
      // Instant is no time at all: the run as it ended, at once.
      if (s === 'instant') return stopAt(n);
      schedule();
    },
    step() {
      stopAt(cursor + 1);
    },
    stepTo(is) {
      let to = cursor;
      while (to < n && !is(to)) to++;
      stopAt(to + 1);
    },
    jump(to) {
      stopAt(to);
    },
    jumpTime(ms) {
      let to = 0;
      while (to < n && times[to] - t0 <= ms) to++;
      stopAt(to);
    },
    dispose() {
      playing = false;
      stopTimer();
    },
  };
}
