import type { LiveTrace, TraceCap } from './state/traces';

// How much of a session's trace the live view holds, and where the held lines start.

export const CAP: TraceCap = { max: 500_000, keep: 450_000 };
export const TAIL_PAGE = 10_000;
/** Lines of history a live view loads when it opens (older ones are read in the sessions browser). */
export const BACKFILL = 100_000;

/** Drops the oldest lines into a new array, so views indexing the old one see a new identity and start over. */
export function capped(t: LiveTrace, cap: TraceCap): LiveTrace {
  if (t.events.length <= cap.max) return t;
  const cut = t.events.length - cap.keep;
  return { ...t, events: t.events.slice(cut), dropped: t.dropped + cut };
}

/** Where the live lines held for a session start in trace.jsonl (they arrive without gaps). */
export const liveStart = (t: LiveTrace | undefined) => (t ? t.nextLine - t.events.length : Infinity);
