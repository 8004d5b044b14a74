import { command, runsHereOnly } from './command';
import { z } from 'zod';
import type { TaskState } from '../a2a';
import type { DelegationUpdate, TaskProgress, TraceEvent } from '../trace';

// Replay of a recorded formation run: the core gathers the run's sessions (the one asked for and
// every session its delegations reached) and reads them into the same flow updates it derives
// live, in time order. The Studio plays them on the canvas; nothing runs. Spread into `commands`.

const sessionId = z.string().regex(/^ses_[0-9a-f]{32}$/, 'a session id (ses_ and 32 hex digits)');

/** At most this many trace lines in one replay: a longer run is cut there, and says so. */
export const MAX_REPLAY_LINES = 20_000;
/** At most this many bytes of trace lines and steps (as JSON) in one replay; a line over MAX_REPLAY_LINE_BYTES travels as a stub. */
export const MAX_REPLAY_BYTES = 8 * 1024 * 1024;
export const MAX_REPLAY_LINE_BYTES = 64 * 1024;

/** One trace line of the run, in time order across its sessions. */
export interface ReplayLine {
  /** Epoch ms of the line's ts. */
  at: number;
  sessionId: string;
  capsule: string;
  /** Its index in the session's trace. */
  seq: number;
  /** The line (a stub with `cut: true` past MAX_REPLAY_LINE_BYTES). */
  event: TraceEvent;
}

/** A task's state as its trace tells it, with its answer, question or failure (cut to 4000 characters). */
export interface ReplayTaskState {
  taskId: string;
  state: TaskState;
  text: string;
}

/** What one trace line changed on the canvas: a hop, a task's turn, or a task's state. */
export interface ReplayStep {
  at: number;
  /** Index in `lines` of the line that made it. */
  line: number;
  sessionId: string;
  capsule: string;
  delegations?: DelegationUpdate[];
  progress?: TaskProgress;
  task?: ReplayTaskState;
}

export interface ReplayRun {
  /** The session asked for, and its capsule. */
  sessionId: string;
  entry: string;
  capsules: { capsule: string; sessionIds: string[] }[];
  /** Epoch ms of the first and last line. */
  startedAt: number;
  endedAt: number;
  lines: ReplayLine[];
  steps: ReplayStep[];
  /** True when the run had more than the bounds let through (its first part is here). */
  truncated: boolean;
  /** What could not be followed (a peer whose records are elsewhere), in words. */
  notes: string[];
}

export const replayCommands = {
  'sessions.replay': command<ReplayRun>()(
    `A recorded formation run read for replay, running nothing: the session's tasks (or one task) and every task its delegations caused in other sessions, as time-ordered trace lines and the flow steps (hops, turns, task states) they make, derived as live. At most ${MAX_REPLAY_LINES} lines and ${MAX_REPLAY_BYTES} bytes of lines and steps.`,
    z.strictObject({ sessionId, taskId: z.string().min(1).max(200).optional() }),
    runsHereOnly({ sessions: ['sessionId'] }),
  ),
} as const;
