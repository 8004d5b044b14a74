import type { ReplayRun } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import { EMPTY_FLOW, capsulesOnCanvas, foldSteps, type ReplayFlow } from './replayFold';
import { createReplayPlayer, realClock, type ReplayClock, type ReplayPlayer } from './replayPlayer';
import type { SliceCreator, StudioState } from './types';
import type { REPLAY_ACTIONS, ReplaySlice, ReplayState } from './state/replay';

// Replay mode's workings: the player, the recorded steps folded onto the canvas's flow (with
// checkpoints for jumps back). Loaded when a replay first starts (replaySlice.ts names them).

let player: ReplayPlayer | null = null;
let clock: ReplayClock = realClock;
/** Tests drive the replay with a fake clock. */
export function setReplayClock(c: ReplayClock): void {
  clock = c;
}

/** Every CHECKPOINT steps the flow is kept, so a jump back folds at most this many steps (about 80 kept for a full run). */
const CHECKPOINT = 256;
let checkpoints: ReplayFlow[] = [EMPTY_FLOW];
/** The edges the checkpoints were folded on: an edge drawn or removed meanwhile folds anew. */
let checkpointEdges: unknown = null;

/** The flow at `cursor` steps: on from the current one, or from the nearest checkpoint when that is closer (always, moving back). */
export function flowAt(s: StudioState, r: ReplayState, cursor: number): ReplayFlow {
  let from = r.cursor;
  let flow: ReplayFlow = { edgeFlow: s.edgeFlow, activity: s.activity };
  if (checkpointEdges !== s.edgeViews) {
    checkpointEdges = s.edgeViews;
    checkpoints = [EMPTY_FLOW];
  }
  // Back, or forward past a checkpoint already folded: start from the nearest one.
  const k = Math.min(Math.floor(cursor / CHECKPOINT), checkpoints.length - 1);
  if (cursor < r.cursor || k * CHECKPOINT > r.cursor) {
    from = k * CHECKPOINT;
    flow = checkpoints[k];
  }
  // Folds are pure and keep what they do not change: a checkpoint is the flow object itself.
  while (from < cursor) {
    const to = Math.min(cursor, (Math.floor(from / CHECKPOINT) + 1) * CHECKPOINT);
    flow = foldSteps(s, r.run, r.ids, flow, from, to);
    from = to;
    if (to % CHECKPOINT === 0 && checkpoints.length === to / CHECKPOINT) checkpoints.push(flow);
  }
  return flow;
}

export const createReplayActions: SliceCreator<Pick<ReplaySlice, (typeof REPLAY_ACTIONS)[number]>> = (set, get) => {
  const onCursor = (cursor: number, playing: boolean) => {
    const s = get();
    const r = s.replay;
    if (!r) {
      player?.dispose();
      player = null;
      return;
    }
    set({ ...flowAt(s, r, cursor), replay: { ...r, cursor, playing, speed: player?.speed ?? r.speed } });
  };
  return {
    async startReplay(sessionId, taskId) {
      set({ replayLoading: true });
      let run: ReplayRun;
      try {
        run = await invoke('sessions.replay', { sessionId, ...(taskId ? { taskId } : {}) });
      } catch (err) {
        set({ replayLoading: false });
        get().notify('error', `Could not read the run to replay: ${describeError(err)}`);
        return;
      }
      get().exitReplay();
      const s = get();
      const { ids, missing } = capsulesOnCanvas(s, run);
      checkpointEdges = null;
      player = createReplayPlayer(
        run.steps.map((x) => x.at),
        (c, p) => onCursor(c, p),
        clock,
      );
      // The canvas shows the run from its start; the sessions browser steps aside for it.
      set({
        replayLoading: false,
        sessionsView: 'closed',
        replay: {
          run,
          cursor: 0,
          playing: false,
          speed: player.speed,
          ids,
          missing,
          live: { edgeFlow: s.edgeFlow, activity: s.activity },
        },
        edgeFlow: {},
        activity: {},
      });
      // The timeline draws the run's sessions around it, with the replay's cursor (a read of the index).
      if (get().timeline?.around !== run.sessionId) void get().loadTimeline(run.sessionId);
      if (missing.length)
        get().notify('warning', `Not on this canvas, so not drawn in the replay: ${missing.join(', ')}.`);
      if (run.notes.length) get().notify('info', `Replay: ${run.notes.join('; ')}.`);
    },
    replayControl(c) {
      if (!player || !get().replay) return;
      const hops = get().replay!.run.steps;
      switch (c.do) {
        case 'play':
          return player.play();
        case 'pause':
          return player.pause();
        case 'step':
          return player.step();
        case 'stepHop':
          return player.stepTo((i) => !!hops[i].delegations?.length);
        case 'jump':
          return player.jump(c.cursor);
        case 'jumpTime':
          return player.jumpTime(c.ms);
        case 'speed':
          player.setSpeed(c.speed);
          set((s) => (s.replay ? { replay: { ...s.replay, speed: player?.speed ?? c.speed } } : {}));
          return;
      }
    },
    exitReplay() {
      player?.dispose();
      player = null;
      const r = get().replay;
      if (r) set({ replay: null, edgeFlow: r.live.edgeFlow, activity: r.live.activity });
    },
  };
};
