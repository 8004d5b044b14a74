import { performance } from 'node:perf_hooks';

// Long folds on the Studio's main thread (a replay over 20,000 trace lines, a rehearsal's walk of a
// recorded run) cut into slices: after about SLICE_MS of work the fold waits for the event loop to
// run what queued meanwhile (timers, socket reads, other requests) and goes on where it stopped.
// The result is the one an uncut fold gives; only when the work happens changes. The desktop's
// window shares this thread (docs/performance.md, main thread: event-loop delay p99 <= 10 ms).

/** Work done between two waits for the event loop, at most about this long. */
export const SLICE_MS = 4;

/** Resolves once the event loop has run what was queued before it (setImmediate: after I/O). */
export const yieldToLoop = (): Promise<void> => new Promise((ok) => setImmediate(ok));

export interface SliceClock {
  /** True once the current slice has run its time: the caller should `await next()` before going on. */
  due(): boolean;
  /** Waits for the event loop, then starts a new slice. */
  next(): Promise<void>;
}

/** A clock for one fold's slices, `ms` each. */
export function sliceClock(ms = SLICE_MS): SliceClock {
  let start = performance.now();
  return {
    due: () => performance.now() - start >= ms,
    async next() {
      await yieldToLoop();
      start = performance.now();
    },
  };
}
