import type { CapsuleView, EventPayload, FormationView, RemoteView } from '../../src-shared/contract';
import type { StudioState } from './types';

type CapsuleStatePatch = EventPayload<'capsule.stateChanged'>;

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Folds a whole formation into the store, keeping the identity of every capsule, remote and edge
 * list that did not change, so a formation.changed caused by one edit re-renders one node.
 */
export function foldFormation(state: StudioState, view: FormationView): Partial<StudioState> {
  const capsules: Record<string, CapsuleView> = {};
  for (const c of view.capsules) {
    const old = state.capsules[c.id];
    capsules[c.id] = old && sameJson(old, c) ? old : c;
  }
  const remotes: Record<string, RemoteView> = {};
  for (const r of view.remotes) {
    const old = state.remotes[r.id];
    remotes[r.id] = old && sameJson(old, r) ? old : r;
  }
  const capsuleIds = view.capsules.map((c) => c.id);
  const remoteIds = view.remotes.map((r) => r.id);
  const workspace = { dir: view.dir, name: view.name, issues: view.issues, runningElsewhere: view.runningElsewhere ?? 0 };
  return {
    connection: 'ready',
    connectionError: null,
    workspace: state.workspace && sameJson(state.workspace, workspace) ? state.workspace : workspace,
    capsules,
    remotes,
    capsuleIds: sameJson(state.capsuleIds, capsuleIds) ? state.capsuleIds : capsuleIds,
    remoteIds: sameJson(state.remoteIds, remoteIds) ? state.remoteIds : remoteIds,
    edgeViews: sameJson(state.edgeViews, view.edges) ? state.edgeViews : view.edges,
  };
}

/** Merges a session state change into one capsule. */
export function foldCapsuleStates(state: StudioState, patches: CapsuleStatePatch[]): Partial<StudioState> {
  if (patches.length === 0) return {};
  const capsules = { ...state.capsules };
  for (const p of patches) {
    const old = capsules[p.id];
    if (!old) continue;
    capsules[p.id] = { ...old, state: p.state, url: p.url, sessionId: p.sessionId, queued: p.queued, tasks: p.tasks, running: p.running, error: p.error };
  }
  return { capsules };
}

