import { lazyActions } from './lazyActions';
import type { SliceCreator } from './types';
import { REPLAY_ACTIONS, type ReplaySlice } from './state/replay';
export type { ReplayState, ReplayControl, ReplaySlice } from './state/replay';

// Replay mode: a recorded run played on the canvas from its trace alone. While it lasts the
// canvas's edgeFlow and activity are the replay's; the live ones keep folding aside (`live`)
// and come back on exit, so live work is never drawn into the recording, nor the recording into
// live state. Nothing is run: the only core call is sessions.replay, which reads files.

export const createReplaySlice: SliceCreator<ReplaySlice> = (set, get, api) => ({
  // The player and the folds of the recorded steps load when a replay first starts (replayActions.ts).
  ...lazyActions(REPLAY_ACTIONS, () => import('./replayActions').then((m) => m.createReplayActions))(set, get, api),
  replay: null,
  replayLoading: false,
});
