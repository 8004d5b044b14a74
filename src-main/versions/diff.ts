import type { CapsuleDiffView, EdgeDiffView, VersionDiffView } from '../../src-shared/contract';
import { deriveEdges, summarizeManifest } from '../workspace';
import type { VersionFiles } from './snapshot';

// The diff of two versions as the canvas sees it: manifests side by side, capsules added, removed
// or changed, and edges added or removed. An edge is a permission (an allow entry on the caller,
// the peer export on the worker), so every edge change, and every peer export switched on or off,
// is said in words.

interface Drawn {
  edges: Map<string, Omit<EdgeDiffView, 'change'>>;
  accepts: Map<string, boolean>;
}

function drawn(v: VersionFiles): Drawn {
  // No environment: ${VAR} stays a reference, and a secret never reaches the diff.
  const capsules = v.capsules.map((c) => {
    const s = summarizeManifest(c.source, c.path, {});
    return { id: c.id, name: s.name ?? c.id, port: s.port, allow: s.allow, acceptsPeerTasks: s.acceptsPeerTasks };
  });
  const edges = new Map(
    deriveEdges(capsules, []).map((e) => [e.id, { source: e.source, target: e.target, address: e.address }]),
  );
  return { edges, accepts: new Map(capsules.map((c) => [c.id, c.acceptsPeerTasks])) };
}

const targetName = (target: string) => (target.startsWith('external:') ? target.slice('external:'.length) : target);

export function diffVersions(from: string, to: string, before: VersionFiles, after: VersionFiles): VersionDiffView {
  const was = new Map(before.capsules.map((c) => [c.id, c]));
  const now = new Map(after.capsules.map((c) => [c.id, c]));
  const capsules: CapsuleDiffView[] = [];
  for (const id of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    const a = was.get(id);
    const b = now.get(id);
    if (a && b && a.source === b.source) continue;
    capsules.push({
      id,
      change: !a ? 'added' : !b ? 'removed' : 'changed',
      path: (b ?? a)!.path,
      before: a?.source ?? null,
      after: b?.source ?? null,
    });
  }

  const x = drawn(before);
  const y = drawn(after);
  const edges: EdgeDiffView[] = [];
  const permissions: string[] = [];
  for (const [key, e] of y.edges) {
    if (x.edges.has(key)) continue;
    edges.push({ source: e.source, target: e.target, address: e.address, change: 'added' });
    permissions.push(`${e.source} may now call ${targetName(e.target)} at ${e.address}`);
  }
  for (const [key, e] of x.edges) {
    if (y.edges.has(key)) continue;
    edges.push({ source: e.source, target: e.target, address: e.address, change: 'removed' });
    permissions.push(`${e.source} may no longer call ${targetName(e.target)} at ${e.address}`);
  }
  for (const [id, accepts] of y.accepts) {
    const had = x.accepts.get(id);
    if (had === undefined || had === accepts) continue;
    permissions.push(accepts ? `${id} now accepts peer tasks` : `${id} no longer accepts peer tasks`);
  }
  return { from, to, capsules, edges, permissions, formationChanged: before.formation !== after.formation };
}
