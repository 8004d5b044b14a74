import type { CapsuleView, FormationView, RemoteCardView, RemoteView } from '../../src-shared/contract';
import { deriveEdges } from './edges';
import { remoteAddress } from './remote-card';
import { toolServerViews, withToolServerEdges } from './tool-servers';
import type { ManifestFacts } from './manifest-view';
import type { CapsuleStatus } from './sessions';
import type { LoadedCapsule, LoadedRemote, WorkspaceSnapshot } from './workspace';

// Snapshot + live session state + fetched cards -> what the canvas draws.

export type RemoteCards = Map<string, { card?: RemoteCardView; error?: string }>;

/**
 * `launched`: what the running session was launched with. While the file on disk does not load, the
 * node still shows what runs (name, role, driver, model) from it, and the file's issues beside.
 */
export function capsuleView(
  c: LoadedCapsule,
  status: CapsuleStatus,
  restartToApply?: string,
  launched?: ManifestFacts,
): CapsuleView {
  const s = c.summary;
  const shown = launched && s.issues.length && status.url ? launched : s;
  return {
    id: c.id,
    name: shown.name ?? c.id,
    manifestPath: c.manifestPath,
    position: c.position,
    ...(c.unplaced ? { unplaced: true } : {}),
    role: shown.role,
    driver: shown.driver,
    model: shown.model,
    rehearsal: shown.rehearsal,
    port: s.port,
    manifestSource: c.source,
    manifestHash: c.hash,
    issues: s.issues,
    acceptsPeerTasks: s.acceptsPeerTasks,
    allow: s.allow,
    ...(s.mcpServers.length ? { mcpServers: s.mcpServers } : {}),
    state: status.state,
    ...(status.url ? { url: status.url } : {}),
    ...(status.sessionId ? { sessionId: status.sessionId } : {}),
    queued: status.queued,
    tasks: status.tasks,
    running: status.running,
    ...(status.error ? { error: status.error } : {}),
    ...(status.lastTask ? { lastTask: status.lastTask } : {}),
    ...(restartToApply && status.url ? { restartToApply } : {}),
  };
}

export function remoteView(r: LoadedRemote, cards: RemoteCards): RemoteView {
  const known = cards.get(r.id);
  return {
    id: r.id,
    url: r.url,
    position: r.position,
    ...(r.unplaced ? { unplaced: true } : {}),
    ...(known?.card ? { card: known.card } : {}),
    ...(known?.error ? { error: known.error } : {}),
    address: remoteAddress(r.url, known?.card),
  };
}

export function formationView(
  snap: WorkspaceSnapshot,
  status: (id: string) => CapsuleStatus,
  cards: RemoteCards,
  restartReason: (id: string) => string | undefined = () => undefined,
  launchedAs: (id: string) => ManifestFacts | undefined = () => undefined,
): FormationView {
  const capsules = snap.capsules.map((c) => capsuleView(c, status(c.id), restartReason(c.id), launchedAs(c.id)));
  const remotes = snap.remotes.map((r) => remoteView(r, cards));
  const toolServers = toolServerViews(snap);
  return {
    dir: snap.dir,
    name: snap.name,
    capsules,
    remotes,
    // Listed only when there are any, so a formation without tool servers looks as it always did.
    ...(toolServers.length ? { toolServers } : {}),
    edges: withToolServerEdges(deriveEdges(capsules, remotes), capsules, toolServers),
    issues: snap.issues,
  };
}
