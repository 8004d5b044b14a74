import { CoreError, isToolServerId, type CommandOutput, type FormationView } from '../../src-shared/contract';
import { connectOps, disconnectOps } from '../../src-shared/manifest';
import type { StudioContext } from './context';
import { graphCapsule } from './edges';
import { applyManifestOps } from './manifest-ops';
import { freePort } from './free-port';
import { connectToolServer, disconnectToolServer } from './tool-server-commands';

// Drawing an edge orchestrator -> worker IS the permission: the worker's address goes into the
// orchestrator's allow list and the worker accepts peer tasks (graph.ts plans the edits). Deleting
// it takes both back, the export only when no other capsule still points at the worker. Manifests
// are read from disk right before each edit, so a concurrent hand edit is built upon.

function find(view: FormationView, id: string) {
  const c = view.capsules.find((x) => x.id === id);
  if (!c) throw new CoreError('not_found', `No capsule ${id} in this formation.`);
  return c;
}

export async function connectEdge(
  ctx: StudioContext,
  sourceId: string,
  targetId: string,
  tools?: string[],
): Promise<CommandOutput<'edge.connect'>> {
  if (sourceId === targetId) throw new CoreError('invalid_input', 'A capsule cannot be connected to itself.');
  if (isToolServerId(targetId)) return connectToolServer(ctx, sourceId, targetId, tools);
  const view = ctx.view();
  const source = find(view, sourceId);
  const remote = view.remotes.find((r) => r.id === targetId);
  let message: string;
  let pinnedPort: number | undefined;

  if (remote) {
    if (!remote.address) throw new CoreError('remote_unreachable', `The address of ${remote.url} is not known yet.`);
    applyManifestOps(ctx, sourceId, [{ op: 'addAllow', entry: remote.address }]);
    message = `${source.name} may now call ${remote.card?.name ?? remote.url} at ${remote.address}.`;
  } else {
    const target = find(view, targetId);
    const taken = new Set(view.capsules.map((c) => c.port).filter((p): p is number => p !== null));
    const plan = connectOps(graphCapsule(source), graphCapsule(target), {
      freePort: target.port === null ? await freePort(taken) : 0,
    });
    applyManifestOps(ctx, targetId, plan.worker);
    applyManifestOps(ctx, sourceId, plan.orchestrator);
    message = `${source.name} may now delegate to ${target.name} at localhost:${plan.port}; ${target.name} accepts peer tasks.`;
    if (plan.pinned) {
      pinnedPort = plan.port;
      const note = `Pinned ${target.name} to port ${plan.port} (network.internal_port) so ${source.name}'s allow entry stays valid across restarts.`;
      message += ` ${note}`;
      ctx.emit('notice.raised', { level: 'info', message: note });
    }
  }
  if (ctx.changed({ quiet: true }).length) message += ' It applies to the running capsules now.';
  const edge = ctx.view().edges.find((e) => e.source === sourceId && e.target === targetId);
  if (!edge)
    throw new CoreError(
      'internal',
      `The manifests were updated but no edge ${sourceId} -> ${targetId} is derived from them.`,
    );
  return { edge, ...(pinnedPort !== undefined ? { pinnedPort } : {}), message };
}

export async function disconnectEdge(
  ctx: StudioContext,
  sourceId: string,
  targetId: string,
  opts: { quiet?: boolean } = {},
): Promise<CommandOutput<'edge.disconnect'>> {
  if (isToolServerId(targetId)) return disconnectToolServer(ctx, sourceId, targetId, opts);
  const view = ctx.view();
  const source = find(view, sourceId);
  const edges = view.edges.filter((e) => e.source === sourceId && e.target === targetId);
  if (!edges.length) {
    if (opts.quiet) return { revokedExport: false, message: '' };
    throw new CoreError('not_found', `There is no edge from ${source.name} to ${targetId}.`);
  }
  const target = view.capsules.find((c) => c.id === targetId);
  let revokedExport = false;
  const notes = [`${source.name} may no longer call ${edges.map((e) => e.address).join(', ')}.`];
  if (target) {
    const plan = disconnectOps(graphCapsule(source), graphCapsule(target), {
      capsules: view.capsules.map(graphCapsule),
    });
    applyManifestOps(ctx, sourceId, plan.orchestrator);
    revokedExport = applyManifestOps(ctx, targetId, plan.worker);
    if (revokedExport) notes.push(`${target.name} no longer accepts peer tasks.`);
  } else {
    applyManifestOps(
      ctx,
      sourceId,
      edges.map((e) => ({ op: 'removeAllow', entry: e.address })),
    );
  }
  if (!opts.quiet && ctx.changed({ quiet: true }).length) notes.push('It applies to the running capsules now.');
  return { revokedExport, message: notes.join(' ') };
}
