import type { CapsuleView, EdgeView, FormationView, IssueView, RemoteView } from './types';
import type { ToolServerView } from './tool-servers';

// formation.changed carries what changed, not the whole formation: one capsule moved is that
// capsule's position, not every capsule's manifest text. Changes are numbered; a client applies
// the one numbered just past what it holds, ignores older ones, and asks formation.get when it
// missed one (a whole view carries its version). Pure: the core computes diffs with it, and
// in-process users (tests, tools) rebuild a FormationView with applyFormationChange.

/** One capsule's or remote's changed fields; `unset` names optional fields now absent (JSON has no undefined). */
export interface ItemChange<T> {
  id: string;
  set: Partial<Omit<T, 'id'>>;
  unset?: (keyof T & string)[];
}

/** Changes to a list of items keyed by id. `order`: every id in the new order, only when the list's order is not removals, then additions at the end. */
export interface ListChange<T, C> {
  added?: T[];
  removed?: string[];
  updated?: C[];
  order?: string[];
}

/** What formation.changed carries. */
export interface FormationChange {
  /** Counts the changes the core sent; a client holding version - 1 applies this one, anyone else asks formation.get. */
  version: number;
  dir: string;
  /** The whole formation (a workspace opened): it replaces whatever the client held. */
  full?: FormationView;
  capsules?: ListChange<CapsuleView, ItemChange<CapsuleView>>;
  remotes?: ListChange<RemoteView, ItemChange<RemoteView>>;
  toolServers?: ListChange<ToolServerView, ItemChange<ToolServerView>>;
  /** An edge that changed comes back whole in `updated` (edges are small). */
  edges?: ListChange<EdgeView, EdgeView>;
  name?: string;
  issues?: IssueView[];
  /** Sessions running in other workspaces (0 when none are left). */
  runningElsewhere?: number;
}

const same = (a: unknown, b: unknown): boolean =>
  a === b ||
  (typeof a === 'object' &&
    a !== null &&
    typeof b === 'object' &&
    b !== null &&
    JSON.stringify(a) === JSON.stringify(b));

/** The fields of `after` that differ from `before`; undefined when none do. */
export function diffItem<T extends { id: string }>(before: T, after: T): ItemChange<T> | undefined {
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (key === 'id' || b[key] === undefined) continue;
    if (!same(a[key], b[key])) set[key] = b[key];
  }
  for (const key of Object.keys(a)) if (a[key] !== undefined && b[key] === undefined) unset.push(key);
  if (Object.keys(set).length === 0 && unset.length === 0) return undefined;
  return {
    id: after.id,
    set: set as ItemChange<T>['set'],
    ...(unset.length ? { unset: unset as ItemChange<T>['unset'] } : {}),
  };
}

/** Applies one item's change, returning a new object (the old one is left as it was). */
export function applyItem<T extends { id: string }>(old: T, change: ItemChange<T>): T {
  const next = { ...old, ...change.set } as Record<string, unknown>;
  for (const key of change.unset ?? []) delete next[key];
  return next as T;
}

function diffList<T extends { id: string }, C>(
  before: T[],
  after: T[],
  change: (a: T, b: T) => C | undefined,
): ListChange<T, C> | undefined {
  const old = new Map(before.map((x) => [x.id, x]));
  const now = new Set(after.map((x) => x.id));
  const added: T[] = [];
  const updated: C[] = [];
  for (const x of after) {
    const prev = old.get(x.id);
    if (!prev) added.push(x);
    else if (prev !== x) {
      const c = change(prev, x);
      if (c !== undefined) updated.push(c);
    }
  }
  const removed = before.filter((x) => !now.has(x.id)).map((x) => x.id);
  // Removals, then additions at the end: when that is not the new order, say the order.
  const naive = [...before.filter((x) => now.has(x.id)).map((x) => x.id), ...added.map((x) => x.id)];
  const order = naive.some((id, i) => after[i].id !== id) ? after.map((x) => x.id) : undefined;
  if (!added.length && !removed.length && !updated.length && !order) return undefined;
  return {
    ...(added.length ? { added } : {}),
    ...(removed.length ? { removed } : {}),
    ...(updated.length ? { updated } : {}),
    ...(order ? { order } : {}),
  };
}

/** Applies a list change: items not named keep their identity. */
export function applyList<T extends { id: string }, C>(
  list: T[],
  change: ListChange<T, C> | undefined,
  update: (old: T, c: C) => T,
  idOf: (c: C) => string,
): T[] {
  if (!change) return list;
  const gone = new Set(change.removed ?? []);
  const changed = new Map((change.updated ?? []).map((c) => [idOf(c), c]));
  const next = list.filter((x) => !gone.has(x.id)).map((x) => (changed.has(x.id) ? update(x, changed.get(x.id)!) : x));
  next.push(...(change.added ?? []));
  if (!change.order) return next;
  const byId = new Map(next.map((x) => [x.id, x]));
  return change.order.map((id) => byId.get(id)).filter((x): x is T => x !== undefined);
}

/**
 * What changed from `before` to `after` (both views of the same folder), numbered `version`;
 * undefined when nothing did.
 */
export function diffFormation(
  before: FormationView,
  after: FormationView,
  version: number,
): FormationChange | undefined {
  const capsules = diffList(before.capsules, after.capsules, diffItem);
  const remotes = diffList(before.remotes, after.remotes, diffItem);
  const toolServers = diffList(before.toolServers ?? [], after.toolServers ?? [], diffItem);
  const edges = diffList(before.edges, after.edges, (a, b) => (same(a, b) ? undefined : b));
  const elsewhere = (v: FormationView) => v.runningElsewhere ?? 0;
  const change: FormationChange = {
    version,
    dir: after.dir,
    ...(capsules ? { capsules } : {}),
    ...(remotes ? { remotes } : {}),
    ...(toolServers ? { toolServers } : {}),
    ...(edges ? { edges } : {}),
    ...(before.name !== after.name ? { name: after.name } : {}),
    ...(!same(before.issues, after.issues) ? { issues: after.issues } : {}),
    ...(elsewhere(before) !== elsewhere(after) ? { runningElsewhere: elsewhere(after) } : {}),
  };
  return Object.keys(change).length > 2 ? change : undefined;
}

/**
 * The view after a change, or undefined when the change does not follow `view` (another version:
 * ask formation.get). Unchanged capsules, remotes and edges keep their identity.
 */
export function applyFormationChange(
  view: FormationView | undefined,
  change: FormationChange,
): FormationView | undefined {
  if (change.full) return { ...change.full, version: change.version };
  if (!view || view.version !== change.version - 1 || view.dir !== change.dir) return undefined;
  const next: FormationView = {
    ...view,
    version: change.version,
    capsules: applyList(view.capsules, change.capsules, applyItem, (c) => c.id),
    remotes: applyList(view.remotes, change.remotes, applyItem, (c) => c.id),
    ...(view.toolServers || change.toolServers
      ? { toolServers: applyList(view.toolServers ?? [], change.toolServers, applyItem, (c) => c.id) }
      : {}),
    edges: applyList(
      view.edges,
      change.edges,
      (_old, e) => e,
      (e) => e.id,
    ),
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.issues !== undefined ? { issues: change.issues } : {}),
  };
  if (change.runningElsewhere !== undefined) {
    if (change.runningElsewhere > 0) next.runningElsewhere = change.runningElsewhere;
    else delete next.runningElsewhere;
  }
  return next;
}
