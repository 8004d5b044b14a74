import {
  deriveEdges as deriveGraphEdges,
  type GraphCapsule,
  type GraphRemote,
  type Manifest,
} from '../../src-shared/manifest';
import type { CapsuleView, EdgeView, RemoteView } from '../../src-shared/contract';

// Edges come from the manifests (src-shared/manifest/graph.ts), never from storage: an allow
// entry naming a capsule's port is an edge to it, one naming a remote's interface an edge to the
// remote, anything else an edge to an external address. Here they become the canvas's EdgeViews.

type EdgeSource = Pick<CapsuleView, 'id' | 'name' | 'port' | 'allow' | 'acceptsPeerTasks'> & { url?: string };

/** The graph's view of a capsule, built from the raw manifest summary so a manifest with issues elsewhere still draws its edges. */
export function graphCapsule(c: EdgeSource): GraphCapsule {
  const manifest = {
    ...(c.port !== null ? { network: { internal_port: c.port } } : {}),
    capabilities: { network: { allow: c.allow } },
    exports: { peer_tasks: { accept: c.acceptsPeerTasks } },
  } as unknown as Manifest;
  const running = c.url ? Number(new URL(c.url).port) : undefined;
  return { id: c.id, name: c.name, manifest, ...(running ? { port: running } : {}) };
}

export function graphRemotes(remotes: Pick<RemoteView, 'id' | 'address'>[]): GraphRemote[] {
  return remotes.filter((r) => r.address).map((r) => ({ id: r.id, url: r.address! }));
}

export function deriveEdges(capsules: EdgeSource[], remotes: Pick<RemoteView, 'id' | 'address'>[]): EdgeView[] {
  const seen = new Set<string>();
  const edges: EdgeView[] = [];
  for (const e of deriveGraphEdges(capsules.map(graphCapsule), graphRemotes(remotes))) {
    const target = e.kind === 'external' ? `external:${e.allowEntry}` : e.target;
    const id = `${e.source}->${target}`;
    if (seen.has(id)) continue;
    seen.add(id);
    edges.push({ id, source: e.source, target, targetKind: e.kind, address: e.allowEntry });
  }
  return edges;
}
