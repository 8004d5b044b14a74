import type { ReplayRun } from '../../../src-shared/contract';
import type { EdgeFlow } from '../flowModel';
import type { ReplaySpeed } from '../replayPlayer';
import type { NodeActivity } from './flow';

// The shape of the store's replay slice (and of the flow replayFold.ts folds), below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

export interface ReplayFlow {
  edgeFlow: Record<string, EdgeFlow>;
  activity: Record<string, NodeActivity>;
}

export interface ReplayState {
  run: ReplayRun;
  /** Steps played: 0 … run.steps.length. */
  cursor: number;
  playing: boolean;
  speed: ReplaySpeed;
  /** Recorded capsule name -> canvas capsule id; recorded capsules the canvas has not. */
  ids: Record<string, string>;
  missing: string[];
  /** The live flow, folded aside while the replay shows. */
  live: ReplayFlow;
}

export type ReplayControl =
  | { do: 'play' }
  | { do: 'pause' }
  | { do: 'step' }
  | { do: 'stepHop' }
  | { do: 'jump'; cursor: number }
  | { do: 'jumpTime'; ms: number }
  | { do: 'speed'; speed: ReplaySpeed };

export interface ReplaySlice {
  replay: ReplayState | null;
  replayLoading: boolean;
  /** Reads the run of a recorded session (or one task of it) and shows it, paused before its first step. */
  startReplay(sessionId: string, taskId?: string): Promise<void>;
  replayControl(c: ReplayControl): void;
  /** Back to live: the live flow as it stands now. */
  exitReplay(): void;
}

/** The actions whose code loads on first use (replayActions.ts, see lazyActions.ts). */
export const REPLAY_ACTIONS = ['startReplay', 'replayControl', 'exitReplay'] as const;
