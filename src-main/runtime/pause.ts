// The shapes of a breakpoint pause (what pauses, where, how it ends) with no behaviour: the task
// registry, the tools and the executor carry them, and breakpoints.ts (which drives a pause through
// the session core) sits above all three. Kept apart so none of them has to import breakpoints.ts.

/** What a running session pauses at; the Studio pushes it to its sessions as it changes. */
export interface SessionBreakpoints {
  /** Pause before every model turn of every task of this session. */
  turn: boolean;
  /** Pause before a delegation reaches one of these: by the name the model used or the capsule's, or by its door's URL. */
  edges: { names: string[]; urls: string[] }[];
  /** How long a pause waits before it continues by itself. */
  timeoutMs: number;
}

/** 10 minutes, the same as a request for input waits. */
export const DEFAULT_PAUSE_TIMEOUT_MS = 600_000;
/** Bound on a pause: an hour at most, a second at least. */
export const MAX_PAUSE_TIMEOUT_MS = 3_600_000;
/** What a breakpoint_hit line carries of the message; a longer one is shown cut and cannot be edited. */
export const PAUSE_TEXT_CHARS = 16 * 1024;

/** Where a task is about to go on: its next turn (with the message the model gets) or a delegation. */
export type PausePoint =
  | { kind: 'turn'; turn: number; text: string }
  | { kind: 'edge'; to: string; capsule: string; url: string; callId?: string; text: string };

/** How a pause ended: the message to send, and whether the user changed it. */
export interface PauseOutcome {
  text: string;
  edited: boolean;
}

export type ResumeAction = 'continue' | 'step';

/** The pause a task is in, as resume finds it. */
export interface TaskPause {
  /** The message as the pause shows it; `editable` false when it was cut (PAUSE_TEXT_CHARS). */
  shown: string;
  editable: boolean;
  resume(action: ResumeAction, text?: string): void;
}
