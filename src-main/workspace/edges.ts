import { loopbackPort, matchAllow, sameAllowEntry } from '../../src-shared/manifest';
import type { EdgeView } from '../../src-shared/contract';

// Edges are derived from the manifests, never stored: an allow entry that names a capsule's
// pinned loopback port is an edge to that capsule, one that names a remote agent's interface is an
// edge to that remote, anything else is an edge to an external address. So a hand-edited allow
// list draws the same graph the Studio would have drawn.

export interface EdgeCapsule {
  id: string;
  port: number | null;
  allow: string[];
}
export interface EdgeRemote {
  id: string;
  address?: string;
}

/** Which node an allow entry points at. */
export function resolveAllowEntry(entry: string, capsules: EdgeCapsule[], remotes: EdgeRemote[], self?: string): Omit<EdgeView, 'id' | 'source'> {
  const port = loopbackPort(entry);
  if (port !== undefined) {
    const target = capsules.find((c) => c.id !== self && c.port === port);
    if (target) return { target: target.id, targetKind: 'capsule', address: entry };
  }
  const remote = remotes.find((r) => r.address && (sameAllowEntry(entry, r.address) || matchAllow(r.address, [entry]) !== undefined));
  if (remote) return { target: remote.id, targetKind: 'remote', address: entry };
  return { target: `external:${entry}`, targetKind: 'external', address: entry };
}

export function deriveEdges(capsules: EdgeCapsule[], remotes: EdgeRemote[]): EdgeView[] {
  const edges: EdgeView[] = [];
  const seen = new Set<string>();
  for (const c of capsules) {
    for (const entry of c.allow) {
      const r = resolveAllowEntry(entry, capsules, remotes, c.id);
      const id = `${c.id}->${r.target}`;
      if (seen.has(id)) continue;
      seen.add(id);
      edges.push({ id, source: c.id, ...r });
    }
  }
  return edges;
}

/** The allow entries of `allow` that make an edge to `target`. */
export function entriesTo(allow: string[], target: string, capsules: EdgeCapsule[], remotes: EdgeRemote[], self: string): string[] {
  return allow.filter((e) => resolveAllowEntry(e, capsules, remotes, self).target === target);
}
