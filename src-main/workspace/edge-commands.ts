import { CoreError, type CommandOutput } from '../../src-shared/contract';
import type { StudioContext } from './context';
import { entriesTo, resolveAllowEntry } from './edges';
import { freePort } from './free-port';
import { addAllow, removeAllow, setInternalPort, setPeerAccept } from './manifest-edits';
import { remoteView } from './view';

// Drawing an edge orchestrator -> worker IS the permission: the worker's address goes into the
// orchestrator's allow list and the worker accepts peer tasks. Deleting it takes both back (the
// export only when no other capsule still points at the worker). Manifests are read from disk
// right before each edit, so a concurrent hand edit is built upon.

function edit(ctx: StudioContext, id: string, change: (source: string, file: string) => string): boolean {
  const ws = ctx.workspace();
  const { source, file } = ws.readManifestNow(id);
  let next: string;
  try {
    next = change(source, file);
  } catch (err) {
    throw new CoreError('manifest_invalid', (err as Error).message);
  }
  if (next === source) return false;
  ws.writeManifest(id, next);
  return true;
}

export async function connectEdge(ctx: StudioContext, sourceId: string, targetId: string): Promise<CommandOutput<'edge.connect'>> {
  const ws = ctx.workspace();
  if (sourceId === targetId) throw new CoreError('invalid_input', 'A capsule cannot be connected to itself.');
  const source = ws.capsule(sourceId);
  const snap = ws.snapshot();
  const remote = snap.remotes.find((r) => r.id === targetId);
  let address: string;
  let pinnedPort: number | undefined;
  const notes: string[] = [];
  const sourceName = source.summary.name ?? sourceId;

  if (remote) {
    address = remoteView(remote, ctx.cards).address!;
    notes.push(`${sourceName} may now call ${address}.`);
  } else {
    const target = ws.capsule(targetId);
    const targetName = target.summary.name ?? targetId;
    let port = target.summary.port;
    if (port === null) {
      port = await freePort(new Set(snap.capsules.map((c) => c.summary.port).filter((p): p is number => p !== null)));
      edit(ctx, targetId, (s, f) => setInternalPort(s, f, port!));
      pinnedPort = port;
      notes.push(`Pinned ${targetName} to port ${port} (network.internal_port) so ${sourceName}'s allow entry stays valid across restarts.`);
      if (ctx.sessions.status(targetId).url) notes.push(`Relaunch ${targetName} to move it to that port.`);
    }
    address = `localhost:${port}`;
    edit(ctx, targetId, (s, f) => setPeerAccept(s, f, true));
    notes.unshift(`${sourceName} may now delegate to ${targetName} at ${address}; ${targetName} accepts peer tasks.`);
  }
  edit(ctx, sourceId, (s, f) => addAllow(s, f, address));
  ctx.changed();
  if (pinnedPort !== undefined) ctx.emit('notice.raised', { level: 'info', message: notes[1] });
  const after = ws.snapshot();
  const resolved = resolveAllowEntry(address, after.capsules.map((c) => ({ id: c.id, port: c.summary.port, allow: c.summary.allow })), ctx.view().remotes, sourceId);
  return {
    edge: { id: `${sourceId}->${resolved.target}`, source: sourceId, ...resolved },
    ...(pinnedPort !== undefined ? { pinnedPort } : {}),
    message: notes.join(' '),
  };
}

export async function disconnectEdge(ctx: StudioContext, sourceId: string, targetId: string, opts: { quiet?: boolean } = {}): Promise<CommandOutput<'edge.disconnect'>> {
  const view = ctx.view();
  const source = view.capsules.find((c) => c.id === sourceId);
  if (!source) throw new CoreError('not_found', `No capsule ${sourceId} in this formation.`);
  const entries = entriesTo(source.allow, targetId, view.capsules, view.remotes, sourceId);
  if (!entries.length) {
    if (opts.quiet) return { revokedExport: false, message: '' };
    throw new CoreError('not_found', `There is no edge from ${source.name} to ${targetId}.`);
  }
  edit(ctx, sourceId, (s, f) => removeAllow(s, f, (e) => entries.includes(e)));
  let revokedExport = false;
  const target = view.capsules.find((c) => c.id === targetId);
  const notes = [`${source.name} may no longer call ${entries.join(', ')}.`];
  if (target) {
    const stillPointed = view.capsules.some((c) => c.id !== sourceId && c.id !== targetId && entriesTo(c.allow, targetId, view.capsules, view.remotes, c.id).length > 0);
    if (!stillPointed && target.acceptsPeerTasks) {
      revokedExport = edit(ctx, targetId, (s, f) => setPeerAccept(s, f, false));
      if (revokedExport) notes.push(`${target.name} no longer accepts peer tasks.`);
    }
  }
  if (!opts.quiet) ctx.changed();
  return { revokedExport, message: notes.join(' ') };
}
