import type { ForkDelegationView, ForkDriver, SessionDiffView, SessionFamilyView } from '../../../src-shared/contract';

// The shape of the store's fork slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/** A delegation the recorded task made, as the fork form edits it (`text`; `recorded` is what it sent). */
export interface ForkDelegationDraft extends ForkDelegationView {
  recorded: string;
}

/** The fork form, open on a recorded task and turn. */
export interface ForkDraft {
  sessionId: string;
  taskId: string;
  turn: number;
  /** The task's last recorded turn (the latest a fork may start from). */
  lastTurn: number;
  message: string;
  /** The recorded message, to tell whether it was edited. */
  recorded: string;
  driver: ForkDriver;
  busy: boolean;
  /** The task's delegations (a fork replays those of turns before `turn`); null while they are read. */
  delegations: ForkDelegationDraft[] | null;
}

export interface ForkSlice {
  forkDraft: ForkDraft | null;
  /** The family of the session opened in the browser. */
  family: { sessionId: string; view: SessionFamilyView } | null;
  /** The first session picked for a comparison, waiting for the second. */
  comparePick: string | null;
  comparison: SessionDiffView | null;
  /** Opens the form, then reads the task's delegations from its recording (`sessions.forkOptions`). */
  openForkForm(
    draft: Omit<ForkDraft, 'busy' | 'driver' | 'message' | 'delegations'> & { driver?: ForkDriver },
  ): Promise<void>;
  editForkDraft(
    patch: Partial<Pick<ForkDraft, 'turn' | 'message' | 'driver'>> & { delegation?: { callId: string; text: string } },
  ): void;
  closeForkForm(): void;
  /** Starts the fork; once it has answered, the browser opens the fork's session. */
  startFork(): Promise<void>;
  loadFamily(sessionId: string): Promise<void>;
  pickForCompare(sessionId: string | null): void;
  compareSessions(a: string, b: string): Promise<void>;
  closeComparison(): void;
}

/** The actions whose code loads on first use (forkActions.ts, see lazyActions.ts). */
export const FORK_ACTIONS = ['openForkForm', 'startFork', 'loadFamily', 'compareSessions'] as const;
