import { command, runsWithSession } from './command';
import { z } from 'zod';
import type { SessionItemView } from './sessions';

// Fork a recorded run from a task and turn, see a session's fork family, and compare two runs
// side by side. Spread into `commands` in commands.ts; the handlers live in
// src-main/workspace/fork-command.ts.

const sessionId = z.string().regex(/^ses_[0-9a-f]{32}$/, 'a session id (ses_ and 32 hex digits)');

/** The longest message a fork may be given. */
export const MAX_FORK_MESSAGE_CHARS = 100_000;
/** The latest turn a fork may start from (the turns before it are replayed). */
export const MAX_FORK_TURN = 257;

/** The most replayed delegations a fork lists, and accepts edits of. */
export const MAX_FORK_DELEGATIONS = 64;

/** Who answers a fork from its fork point on. */
export type ForkDriver = 'real' | 'rehearsal';

/** A fork started: its session and task, and how the task stands when the answer was sent. */
export interface ForkStarted {
  sessionId: string;
  taskId: string;
  /** The task's state when sessions.fork answered (it waits up to a bound, then the fork goes on). */
  state: string;
  answer: string | null;
}

/** A delegation a recorded task made at a turn: replayed by a fork from a later turn, its text editable. */
export interface ForkDelegationView {
  turn: number;
  callId: string;
  /** The capsule (or address) the model delegated to. */
  to: string;
  /** What it sent in the recorded run. */
  text: string;
  /** Set when a breakpoint edited it in the recorded run: what the model had written. */
  modelText?: string;
}

/** What a fork of a recorded task can change. */
export interface ForkOptionsView {
  /** The task's recorded message. */
  message: string;
  /** The latest turn a fork may start from. */
  lastTurn: number;
  /** Its delegations in call order (at most MAX_FORK_DELEGATIONS): a fork from turn N replays those of turns before N. */
  delegations: ForkDelegationView[];
}

/** A session's fork family: what it was forked from (nearest first) and the forks made of it. */
export interface SessionFamilyView {
  ancestors: SessionItemView[];
  forks: SessionItemView[];
}

/** One side of a compared turn. */
export interface DiffTurnSide {
  text: string;
  /** Each tool call as `name {arguments}` (delegations included). */
  calls: string[];
  tokensIn: number;
  tokensOut: number;
  /** This turn came from the recording (a fork's turns before its fork point). */
  replayed: boolean;
}

/** What can differ between two runs of a task. */
export type DiffField = 'message' | 'answer' | 'state' | 'tokens' | 'delegations' | 'text' | 'calls';

/** One turn of a task in both runs (null: that run has no such turn). */
export interface DiffTurnRow {
  turn: number;
  a: DiffTurnSide | null;
  b: DiffTurnSide | null;
  differs: DiffField[];
}

/** One side of a compared task. */
export interface DiffTaskSide {
  taskId: string;
  message: string;
  answer: string | null;
  state: string | null;
  tokensIn: number;
  tokensOut: number;
  /** `capsule: text` for every delegation, in call order. */
  delegations: string[];
}

/** A task of each run, aligned (a fork's task with the task it was forked from). */
export interface DiffTaskRow {
  a: DiffTaskSide | null;
  b: DiffTaskSide | null;
  differs: DiffField[];
  turns: DiffTurnRow[];
}

/** Two runs side by side. */
export interface SessionDiffView {
  a: SessionItemView;
  b: SessionItemView;
  tasks: DiffTaskRow[];
  /** Rows (tasks and turns) that differ. */
  changed: number;
  /** Set when a run had more tasks or turns than are compared. */
  truncated: boolean;
}

export const forkCommands = {
  'sessions.fork': command<ForkStarted>()(
    "Forks a recorded task at a turn: a new session of its capsule replays the turns before it from the recording, then `driver` answers (the capsule's configured one, or the recording's rehearsal); `message` replaces the task's message (read from `turn` on: the replayed turns were made with the recorded one), `delegations` what replayed delegations send. Answers once the fork's task settles, or after a bound with the fork still running.",
    z.strictObject({
      sessionId,
      taskId: z.string().min(1).max(200),
      turn: z.number().int().min(1).max(MAX_FORK_TURN),
      message: z.string().min(1).max(MAX_FORK_MESSAGE_CHARS).optional(),
      /** What replayed delegations (of turns before `turn`) send instead of their recorded text. */
      delegations: z
        .array(
          z.strictObject({ callId: z.string().min(1).max(200), text: z.string().min(1).max(MAX_FORK_MESSAGE_CHARS) }),
        )
        .max(MAX_FORK_DELEGATIONS)
        .optional(),
      driver: z.enum(['real', 'rehearsal']),
    }),
    runsWithSession('sessionId'),
  ),
  'sessions.forkOptions': command<ForkOptionsView>()(
    'What a fork of a recorded task can change: its message, the turns it may start from, and the delegations its turns made (a fork replays those before its turn; `sessions.fork` `delegations` edits what they send).',
    z.strictObject({ sessionId, taskId: z.string().min(1).max(200) }),
    runsWithSession('sessionId'),
  ),
  'sessions.family': command<SessionFamilyView>()(
    "A session's fork family: the sessions it was forked from and the forks made of it.",
    z.strictObject({ sessionId }),
    runsWithSession('sessionId'),
  ),
  'sessions.compare': command<SessionDiffView>()(
    'Two runs side by side, aligned by task and turn: messages, turns, tool calls, delegations, answers and tokens, with what differs marked.',
    z.strictObject({ a: sessionId, b: sessionId }),
    runsWithSession('a', 'b'), // both runs on one host; one here and one there is refused
  ),
} as const;
