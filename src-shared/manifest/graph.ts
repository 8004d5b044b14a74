import { loopbackPort, matchAllow, sameAllowEntry } from './allow';
import type { ManifestEditOp } from './edit-ops';
import type { Manifest } from './schema';

// The formation graph and the manifests are one thing seen twice: an edge orchestrator -> worker
// IS an allow entry on the orchestrator for the worker's address (plus the worker's peer export).
// Edges are derived from the manifests, so a hand-edited allow list draws the same graph.

export interface GraphCapsule {
  id: string;
  name: string;
  manifest?: Manifest;
  /** The port it runs on now, when running (used when the manifest pins none). */
  port?: number;
}

export interface GraphRemote {
  id: string;
  /** The agent's interface URL (from its agent card). */
  url: string;
}

export type EdgeKind = 'capsule' | 'remote' | 'external';

export interface GraphEdge {
  id: string;
  source: string;
  /** A capsule id, a remote id, or for an external edge the allow entry itself. */
  target: string;
  allowEntry: string;
  kind: EdgeKind;
}

/** The port other capsules reach this one on: its pinned port, else the port it runs on now. */
export function capsulePort(c: GraphCapsule): number | undefined {
  return c.manifest?.network?.internal_port ?? c.port;
}

export function allowList(m: Manifest | undefined): string[] {
  return m?.capabilities?.network?.allow ?? [];
}

function targetOf(
  entry: string,
  self: GraphCapsule,
  capsules: readonly GraphCapsule[],
  remotes: readonly GraphRemote[],
): { kind: EdgeKind; target: string } {
  const port = loopbackPort(entry);
  if (port !== undefined) {
    // Its pinned port, or the port its door is on now (a pin changed while it runs applies at restart).
    const capsule =
      capsules.find((c) => c.id !== self.id && capsulePort(c) === port) ??
      capsules.find((c) => c.id !== self.id && c.port === port);
    if (capsule) return { kind: 'capsule', target: capsule.id };
  }
  const remote = remotes.find((r) => matchAllow(r.url, [entry]) !== undefined);
  if (remote) return { kind: 'remote', target: remote.id };
  return { kind: 'external', target: entry };
}

export function deriveEdges(capsules: readonly GraphCapsule[], remotes: readonly GraphRemote[]): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const c of capsules) {
    const seen = new Map<string, number>();
    for (const entry of allowList(c.manifest)) {
      const n = seen.get(entry) ?? 0;
      seen.set(entry, n + 1);
      const { kind, target } = targetOf(entry, c, capsules, remotes);
      edges.push({ id: `${c.id}->${entry}${n ? `#${n}` : ''}`, source: c.id, target, allowEntry: entry, kind });
    }
  }
  return edges;
}

export interface ConnectPlan {
  orchestrator: ManifestEditOp[];
  worker: ManifestEditOp[];
  /** The port the allow entry names. */
  port: number;
  /** True when the worker had no network.internal_port and the plan pins one (tell the user). */
  pinned: boolean;
}

/**
 * The edits that draw an edge orchestrator -> worker. A worker without a pinned port is pinned to
 * the port it runs on now when known (so the edge works without a restart), else to `freePort`.
 */
export function connectOps(orchestrator: GraphCapsule, worker: GraphCapsule, opts: { freePort: number }): ConnectPlan {
  const pinnedPort = worker.manifest?.network?.internal_port;
  const port = pinnedPort ?? worker.port ?? opts.freePort;
  const entry = `localhost:${port}`;
  // An entry that already reaches the worker's door (it binds 127.0.0.1) makes the edge: no second one.
  const covered = allowList(orchestrator.manifest).some(
    (e) => sameAllowEntry(e, entry) || matchAllow(`127.0.0.1:${port}`, [e]) !== undefined,
  );
  const orchestratorOps: ManifestEditOp[] = covered ? [] : [{ op: 'addAllow', entry }];
  const workerOps: ManifestEditOp[] = [];
  if (pinnedPort === undefined) workerOps.push({ op: 'setInternalPort', port });
  if (worker.manifest?.exports?.peer_tasks?.accept !== true) workerOps.push({ op: 'setPeerAccept', value: true });
  return { orchestrator: orchestratorOps, worker: workerOps, port, pinned: pinnedPort === undefined };
}

/**
 * The edits that delete the edge orchestrator -> worker: every allow entry of the orchestrator that
 * reaches the worker goes, and the worker's peer export goes too when no other capsule still has an
 * edge to it. `capsules` is the whole formation (used to find those other edges).
 */
export function disconnectOps(
  orchestrator: GraphCapsule,
  worker: GraphCapsule,
  opts: { capsules: readonly GraphCapsule[] },
): { orchestrator: ManifestEditOp[]; worker: ManifestEditOp[] } {
  const all = opts.capsules.some((c) => c.id === orchestrator.id) ? opts.capsules : [...opts.capsules, orchestrator];
  const everyone = all.some((c) => c.id === worker.id) ? all : [...all, worker];
  const edges = deriveEdges(everyone, []).filter((e) => e.kind === 'capsule' && e.target === worker.id);
  const entries = [...new Set(edges.filter((e) => e.source === orchestrator.id).map((e) => e.allowEntry))];
  const stillReached = edges.some((e) => e.source !== orchestrator.id);
  const workerOps: ManifestEditOp[] =
    !stillReached && worker.manifest?.exports?.peer_tasks?.accept === true
      ? [{ op: 'setPeerAccept', value: false }]
      : [];
  return { orchestrator: entries.map((entry) => ({ op: 'removeAllow', entry })), worker: workerOps };
}
