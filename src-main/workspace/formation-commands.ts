import { join } from 'node:path';
import { CoreError } from '../../src-shared/contract';
import type { Handlers } from './handlers';
import type { StudioContext } from './context';
import { copyExample, writeEmptyFormation } from './example';
import { existsSync, isDirectory } from './files';
import { FORMATION_FILE } from './formation-file';
import { readdirSync } from 'node:fs';
import { renderManifestTemplate } from '../manifest';
import { resolveWorkspaceDir } from './workspace-dir';
import { capsuleView } from './view';
import { connectEdge, disconnectEdge } from './edge-commands';
import { duplicateCapsule } from './duplicate-command';

// Handlers for workspace, formation layout, capsules and manifests.

function isEmptyFolder(dir: string): boolean {
  try {
    return readdirSync(dir).filter((f) => !f.startsWith('.')).length === 0;
  } catch {
    return true;
  }
}

/** A name for a new capsule that clashes with no capsule id or manifest file. */
function freshName(ctx: StudioContext, base: string): string {
  const ws = ctx.workspace();
  const ids = new Set(ws.snapshot().capsules.flatMap((c) => [c.id, c.summary.name ?? '']));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!ids.has(name) && !existsSync(join(ws.dir, 'capsules', `${name}.yaml`))) return name;
  }
}

export function formationHandlers(
  ctx: StudioContext,
): Pick<
  Handlers,
  | 'workspace.open'
  | 'workspace.create'
  | 'workspace.recent'
  | 'workspace.current'
  | 'formation.get'
  | 'capsule.add'
  | 'capsule.duplicate'
  | 'capsule.move'
  | 'capsule.remove'
  | 'edge.connect'
  | 'edge.disconnect'
  | 'manifest.read'
  | 'manifest.write'
  | 'remote.add'
  | 'remote.move'
  | 'remote.remove'
  | 'remote.refresh'
> {
  return {
    'workspace.open': ({ dir, running }) => ctx.open(resolveWorkspaceDir(dir, ctx.config.workspacesRoot), { running }),
    async 'workspace.create'({ dir: typed, example, running }) {
      const dir = resolveWorkspaceDir(typed, ctx.config.workspacesRoot);
      if (existsSync(join(dir, FORMATION_FILE)))
        throw new CoreError('conflict', `${dir} already holds a workspace; open it instead.`);
      if (existsSync(dir) && !isDirectory(dir)) throw new CoreError('invalid_input', `${dir} is a file, not a folder.`);
      if (existsSync(dir) && !isEmptyFolder(dir))
        throw new CoreError('conflict', `${dir} is not empty; choose a new or empty folder for a workspace.`);
      if (example) copyExample(ctx.config.resourcesDir, dir);
      else writeEmptyFormation(dir);
      return ctx.open(dir, { running });
    },
    'workspace.recent': () => ctx.recent.list(),
    'workspace.current': () => ({ dir: ctx.current()?.dir ?? null }),
    'formation.get': () => ctx.syncedView(),

    async 'capsule.add'({ kind, name, position }) {
      const ws = ctx.workspace();
      const chosen = name ?? freshName(ctx, kind);
      if (ws.snapshot().capsules.some((c) => c.id === chosen))
        throw new CoreError('conflict', `A capsule named ${chosen} is already in the formation.`);
      const manifest = `capsules/${chosen}.yaml`;
      ws.createManifest(manifest, renderManifestTemplate(kind, chosen));
      ws.addNode('capsules', { id: chosen, manifest, position });
      ctx.changed();
      return capsuleView(ws.capsule(chosen), ctx.sessions.status(chosen));
    },
    'capsule.duplicate': (args) => duplicateCapsule(ctx, args),
    'capsule.move'({ id, position }) {
      ctx.workspace().moveNode('capsules', id, position);
      ctx.changed();
    },
    async 'capsule.remove'({ id, deleteManifest }) {
      const ws = ctx.workspace();
      ws.capsule(id);
      await ctx.sessions.stop(id);
      // Edges into the removed capsule go with it, so no allow entry is left pointing at nothing.
      for (const other of ws.snapshot().capsules)
        if (other.id !== id) await disconnectEdge(ctx, other.id, id, { quiet: true });
      if (deleteManifest) ws.deleteManifest(id);
      ws.removeNode('capsules', id);
      ctx.changed();
    },

    'edge.connect': ({ source, target, tools }) => connectEdge(ctx, source, target, tools),
    'edge.disconnect': ({ source, target }) => disconnectEdge(ctx, source, target),

    'manifest.read'({ id }) {
      const c = ctx.workspace().capsule(id);
      return { id, path: c.manifestPath, source: c.source, hash: c.hash, issues: c.summary.issues };
    },
    'manifest.write'({ id, source, expected }) {
      const ws = ctx.workspace();
      try {
        const result = ws.writeManifest(id, source, expected);
        ctx.changed();
        return result;
      } catch (err) {
        if (err instanceof CoreError && err.code === 'conflict') {
          const c = ws.capsule(id);
          ctx.emit('manifest.conflicted', {
            id,
            path: c.manifestPath,
            hash: String(err.details?.hash ?? ''),
            message: err.message,
          });
        }
        throw err;
      }
    },

    async 'remote.add'({ url, position }) {
      const ws = ctx.workspace();
      const host = new URL(url).hostname.replace(/[^a-z0-9-]/gi, '-');
      const ids = new Set(ws.snapshot().remotes.map((r) => r.id));
      let id = `remote-${host}`;
      for (let n = 2; ids.has(id); n++) id = `remote-${host}-${n}`;
      ws.addNode('remotes', { id, url, position });
      await ctx.refreshCard(id, url);
      const view = ctx.view().remotes.find((r) => r.id === id);
      if (!view) throw new CoreError('internal', 'The remote was added but is not in the formation');
      return view;
    },
    'remote.move'({ id, position }) {
      ctx.workspace().moveNode('remotes', id, position);
      ctx.changed();
    },
    async 'remote.remove'({ id }) {
      const ws = ctx.workspace();
      if (!ws.snapshot().remotes.some((r) => r.id === id))
        throw new CoreError('not_found', `No remote agent ${id} in this formation.`);
      for (const c of ws.snapshot().capsules) await disconnectEdge(ctx, c.id, id, { quiet: true });
      ws.removeNode('remotes', id);
      ctx.cards.delete(id);
      ctx.changed();
    },
    async 'remote.refresh'({ id }) {
      const r = ctx
        .workspace()
        .snapshot()
        .remotes.find((x) => x.id === id);
      if (!r) throw new CoreError('not_found', `No remote agent ${id} in this formation.`);
      await ctx.refreshCard(id, r.url);
      return ctx.view().remotes.find((x) => x.id === id)!;
    },
  };
}
