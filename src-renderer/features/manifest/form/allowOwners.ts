import { deriveEdges, type GraphCapsule, type GraphRemote, type Manifest } from '../../../../src-shared/manifest';

// Which allow entries of a draft are edges of the formation. An entry naming another capsule's
// port (pinned, or the one it runs on) or covering a remote agent's URL is drawn as an edge, and
// the edge owns it: the canvas draws and deletes it (with the worker's peer export), so the form
// shows it as such and does not edit it. Other entries are plain addresses the form edits.
// The same derivation as the canvas (src-shared deriveEdges), applied to the draft.

export interface FormationPeer {
  id: string;
  name: string;
  /** network.internal_port when pinned. */
  pinnedPort?: number;
  /** The port its door runs on now. */
  runningPort?: number;
}

export interface RemotePeer {
  id: string;
  url: string;
  name: string;
}

export interface AllowOwner {
  kind: 'capsule' | 'remote';
  /** The capsule's name or the remote agent's name. */
  name: string;
}

const asManifest = (m: unknown) => m as Manifest;

/** For each entry (by index), the edge that owns it, or null for a plain address. */
export function allowOwners(
  entries: readonly string[],
  selfId: string,
  peers: readonly FormationPeer[],
  remotes: readonly RemotePeer[],
): (AllowOwner | null)[] {
  const capsules: GraphCapsule[] = peers
    .filter((p) => p.id !== selfId)
    .map((p) => ({
      id: p.id,
      name: p.name,
      port: p.runningPort,
      manifest: asManifest(p.pinnedPort ? { network: { internal_port: p.pinnedPort } } : {}),
    }));
  const self: GraphCapsule = {
    id: selfId,
    name: selfId,
    manifest: asManifest({ capabilities: { network: { allow: entries.map(String) } } }),
  };
  const graphRemotes: GraphRemote[] = remotes.map((r) => ({ id: r.id, url: r.url }));
  const edges = deriveEdges([self, ...capsules], graphRemotes).filter((e) => e.source === selfId);
  return entries.map((_, i) => {
    const e = edges[i];
    if (!e || e.kind === 'external') return null;
    if (e.kind === 'capsule') return { kind: 'capsule', name: peers.find((p) => p.id === e.target)?.name ?? e.target };
    return { kind: 'remote', name: remotes.find((r) => r.id === e.target)?.name ?? e.target };
  });
}

/** The port of a door URL (http://127.0.0.1:PORT/), or undefined. */
export function portOfUrl(url: string | undefined): number | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.port ? Number(u.port) : undefined;
  } catch {
    return undefined;
  }
}
