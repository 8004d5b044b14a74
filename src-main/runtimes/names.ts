import {
  checkedLastTask,
  runtimeCapsuleId,
  type CapsuleView,
  type EdgeView,
  type Position,
  type RemoteView,
} from '../../src-shared/contract';

// A runtime's formation as this Studio shows it: its capsules and remotes under ids namespaced by
// the runtime (`@host-b/writer`), tagged with it, and standing in the runtime's own area of the
// canvas (its positions shifted by the runtime's offset, taken back off when a node is moved).
// Pure functions; the service keeps their results while the runtime's view does not change, so an
// unchanged capsule keeps its identity and formation.changed diffs stay small.

export interface Namer {
  readonly runtime: string;
  readonly offset: Position;
  id(id: string): string;
  capsule(c: CapsuleView): CapsuleView;
  remote(r: RemoteView): RemoteView;
  edge(e: EdgeView): EdgeView;
  /** A position on this Studio's canvas as the runtime stores it. */
  toRuntime(p: Position): Position;
}

export function createNamer(runtime: string, offset: Position): Namer {
  const id = (x: string) => runtimeCapsuleId(runtime, x);
  const shift = (p: Position): Position => ({ x: p.x + offset.x, y: p.y + offset.y });
  return {
    runtime,
    offset,
    id,
    capsule: ({ lastTask, ...c }) => {
      // What the runtime says its capsule answered last, only when it is of the contract's shape and size.
      const last = checkedLastTask(lastTask);
      return { ...c, id: id(c.id), position: shift(c.position), runtime, ...(last ? { lastTask: last } : {}) };
    },
    remote: (r) => ({ ...r, id: id(r.id), position: shift(r.position), runtime }),
    edge: (e) => ({
      ...e,
      id: id(e.id),
      source: id(e.source),
      target: e.targetKind === 'external' ? e.target : id(e.target),
    }),
    toRuntime: (p) => ({ x: p.x - offset.x, y: p.y - offset.y }),
  };
}

/** host:port of an allow entry or URL, lowercased; undefined when it names no port. */
export function hostPort(address: string): string | undefined {
  try {
    const u = new URL(/^[a-z]+:\/\//i.test(address) ? address : `http://${address}`);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.hostname.toLowerCase()}:${port}`;
  } catch {
    return undefined;
  }
}

/** The port a capsule's door listens on: pinned in its manifest, or the one its session has. */
export function doorPort(c: CapsuleView): number | undefined {
  if (c.port) return c.port;
  if (!c.url) return undefined;
  const p = Number(new URL(c.url).port);
  return Number.isFinite(p) && p > 0 ? p : undefined;
}

/**
 * Edges across hosts: an allow entry on one runtime that names the door of a capsule on another
 * (its runtime's host and the capsule's port) is drawn to that capsule, not as an external address.
 * `doors`: host:port -> capsule id, for the capsules of every runtime.
 */
export function linkAcross(edges: EdgeView[], doors: Map<string, string>): EdgeView[] {
  let changed = false;
  const out = edges.map((e) => {
    if (e.targetKind !== 'external') return e;
    const key = hostPort(e.address);
    const target = key ? doors.get(key) : undefined;
    if (!target || target === e.source) return e;
    changed = true;
    return { ...e, target, targetKind: 'capsule' as const };
  });
  return changed ? out : edges;
}
