import {
  applyItem,
  type CapsuleView,
  type EventPayload,
  type FormationChange,
  type FormationView,
  type ItemChange,
  type ListChange,
  type RemoteView,
  type ToolServerView,
  withCapsuleState,
} from '../../src-shared/contract';
import type { StudioState } from './types';

type CapsuleStatePatch = EventPayload<'capsule.stateChanged'>;

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Folds a whole formation into the store, keeping the identity of every capsule, remote and edge
 * list that did not change, so a formation.changed caused by one edit re-renders one node.
 * `version`: the formation.changed version the view is current with (null when unknown).
 */
export function foldFormation(
  state: StudioState,
  view: FormationView,
  version: number | null = view.version ?? null,
): Partial<StudioState> {
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
  const toolServers: Record<string, ToolServerView> = {};
  for (const t of view.toolServers ?? []) {
    const old = state.toolServers[t.id];
    toolServers[t.id] = old && sameJson(old, t) ? old : t;
  }
  const capsuleIds = view.capsules.map((c) => c.id);
  const remoteIds = view.remotes.map((r) => r.id);
  const toolServerIds = (view.toolServers ?? []).map((t) => t.id);
  const workspace = {
    dir: view.dir,
    name: view.name,
    issues: view.issues,
    runningElsewhere: view.runningElsewhere ?? 0,
  };
  return {
    connection: 'ready',
    connectionError: null,
    workspace: state.workspace && sameJson(state.workspace, workspace) ? state.workspace : workspace,
    capsules,
    remotes,
    capsuleIds: sameJson(state.capsuleIds, capsuleIds) ? state.capsuleIds : capsuleIds,
    remoteIds: sameJson(state.remoteIds, remoteIds) ? state.remoteIds : remoteIds,
    toolServers,
    toolServerIds: sameJson(state.toolServerIds, toolServerIds) ? state.toolServerIds : toolServerIds,
    edgeViews: sameJson(state.edgeViews, view.edges) ? state.edgeViews : view.edges,
    formationVersion: version,
    formationBehind: false,
  };
}

/** An item after its change; the same object when the change says what it holds already. */
function changedItem<T extends { id: string }>(old: T, change: ItemChange<T>): T {
  const o = old as Record<string, unknown>;
  const same =
    Object.entries(change.set).every(([k, v]) => sameJson(o[k], v)) &&
    (change.unset ?? []).every((k) => o[k] === undefined);
  return same ? old : applyItem(old, change);
}

/** A keyed record after a list change, or undefined when it names an item the record lacks (the client is behind). */
function foldRecord<T extends { id: string }>(
  record: Record<string, T>,
  change: ListChange<T, ItemChange<T>> | undefined,
): Record<string, T> | undefined {
  if (!change) return record;
  const next = { ...record };
  for (const id of change.removed ?? []) delete next[id];
  for (const c of change.updated ?? []) {
    const old = next[c.id];
    if (!old) return undefined;
    next[c.id] = changedItem(old, c);
  }
  for (const item of change.added ?? []) next[item.id] = item;
  return next;
}

/** The id order after a list change (the same array when it neither adds, removes nor reorders). */
function foldIds(ids: string[], change: ListChange<unknown, unknown> | undefined): string[] {
  if (!change || (!change.added?.length && !change.removed?.length && !change.order)) return ids;
  if (change.order) return change.order;
  const gone = new Set(change.removed ?? []);
  return [...ids.filter((id) => !gone.has(id)), ...(change.added ?? []).map((x) => (x as { id: string }).id)];
}

/**
 * Folds one formation.changed: a whole view replaces the formation (unless older than what is
 * held), a change just past the version held is applied keeping every unchanged object, an older
 * one is ignored, and any other marks the store `formationBehind` (the store asks formation.get).
 */
export function foldFormationChange(state: StudioState, change: FormationChange): Partial<StudioState> {
  const held = state.formationVersion;
  if (change.full)
    return held !== null && change.version < held ? {} : foldFormation(state, change.full, change.version);
  if (held !== null && change.version <= held) return {};
  if (held === null || change.version !== held + 1 || state.workspace?.dir !== change.dir)
    return state.formationBehind ? {} : { formationBehind: true };
  const capsules = foldRecord(state.capsules, change.capsules);
  const remotes = foldRecord(state.remotes, change.remotes);
  const toolServers = foldRecord(state.toolServers, change.toolServers);
  if (!capsules || !remotes || !toolServers) return { formationBehind: true };
  const gone = new Set(change.edges?.removed ?? []);
  const updated = new Map((change.edges?.updated ?? []).map((e) => [e.id, e]));
  let edgeViews = state.edgeViews;
  if (change.edges) {
    edgeViews = state.edgeViews
      .filter((e) => !gone.has(e.id))
      .map((e) => (updated.has(e.id) && !sameJson(e, updated.get(e.id)) ? updated.get(e.id)! : e));
    edgeViews.push(...(change.edges.added ?? []));
    if (change.edges.order) {
      const byId = new Map(edgeViews.map((e) => [e.id, e]));
      edgeViews = change.edges.order.map((id) => byId.get(id)!).filter(Boolean);
    }
  }
  const ws = state.workspace!;
  const workspace =
    change.name !== undefined || change.issues !== undefined || change.runningElsewhere !== undefined
      ? {
          ...ws,
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.issues ? { issues: change.issues } : {}),
          ...(change.runningElsewhere !== undefined ? { runningElsewhere: change.runningElsewhere } : {}),
        }
      : ws;
  return {
    capsules,
    remotes,
    capsuleIds: foldIds(state.capsuleIds, change.capsules),
    remoteIds: foldIds(state.remoteIds, change.remotes),
    toolServers,
    toolServerIds: foldIds(state.toolServerIds, change.toolServers),
    edgeViews,
    workspace,
    formationVersion: change.version,
  };
}

/** Merges a session state change into one capsule. */
export function foldCapsuleStates(state: StudioState, patches: CapsuleStatePatch[]): Partial<StudioState> {
  if (patches.length === 0) return {};
  const capsules = { ...state.capsules };
  for (const p of patches) {
    const old = capsules[p.id];
    if (!old) continue;
    capsules[p.id] = withCapsuleState(old, p);
  }
  return { capsules };
}
