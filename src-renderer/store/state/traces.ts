import type { TraceEvent } from '../../../src-shared/trace';

// The shape of the store's traces slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/**
 * The live trace of one session. Lines are appended in place (a burst of 10k/s would make
 * copying arrays per frame the bottleneck); `version` changes on every append so views re-render.
 * `events` gets a new identity only when lines are replaced (history spliced in front, lines
 * dropped by the cap): a view that indexes into it starts over then.
 */
export interface LiveTrace {
  sessionId: string;
  capsuleId?: string;
  events: TraceEvent[];
  /**
   * The index in trace.jsonl (as trace.tail and trace.appended's `first` count lines) just past
   * the last line held: a batch starting before it repeats lines already here.
   */
  nextLine: number;
  /** Lines dropped from the front to keep memory bounded. */
  dropped: number;
  /** True once lines from the start of the session were fetched with trace.tail. */
  backfilled: boolean;
  version: number;
}

export interface TracesSlice {
  /** Lines held for the session the live view shows (no other: a closed view's lines are dropped). */
  traces: Record<string, LiveTrace>;
  /** The session the trace panel shows, and follows (trace.follow) while it is open. */
  traceSessionId: string | null;
  /** Follows the session and reads its recent history; the one shown before is closed first. */
  openTrace(sessionId: string | null): Promise<void>;
  /** The view closed: unfollow the session and drop its lines. */
  closeTrace(sessionId: string): void;
  /** After a reconnect the core follows nothing for this client: follow the open session again and read it afresh. */
  refollowTrace(): Promise<void>;
}

/** Past `max` lines, the oldest go until `keep` remain: one copy per (max - keep) lines, not one per batch. */
export interface TraceCap {
  max: number;
  keep: number;
}

/** The actions whose code loads on first use (traceActions.ts, see lazyActions.ts). */
export const TRACE_ACTIONS = ['openTrace'] as const;
