import {
  CoreError,
  isToolServerId,
  type CommandOutput,
  type ToolServerDefinition,
  type ToolServerView,
} from '../../src-shared/contract';
import { listMcpTools } from '../runtime';
import type { StudioContext } from './context';
import { applyManifestOps } from './manifest-ops';
import type { Handlers } from './handlers';
import { definitionOf, manifestEntryFor, serverNamed } from './tool-servers';

// Tool servers (MCP) on the canvas. The node is formation.yaml's `tool_servers` entry; an edge
// capsule -> tool server is the capsule's capabilities.mcp.servers entry (and, for a remote one,
// the allow entry its URL needs, marked as the edge's): drawing writes it, deleting takes back
// exactly what drawing wrote (src-shared/manifest/mcp-edit.ts), comments kept.

const LIST_TIMEOUT_MS = 10_000;
const LIST_MAX_BYTES = 4 * 1024 * 1024;

function server(ctx: StudioContext, id: string): ToolServerView {
  const found = isToolServerId(id) ? ctx.view().toolServers?.find((s) => s.id === id) : undefined;
  if (!found) throw new CoreError('not_found', `No tool server ${id.replace(/^mcp:/, '')} in this formation.`);
  return found;
}

function capsule(ctx: StudioContext, id: string) {
  const c = ctx.view().capsules.find((x) => x.id === id);
  if (!c) throw new CoreError('not_found', `No capsule ${id} in this formation.`);
  return c;
}

const changedNote = (ctx: StudioContext) =>
  ctx.changed({ quiet: true }).length ? ' It applies to the running capsules now.' : '';

export function connectToolServer(
  ctx: StudioContext,
  sourceId: string,
  targetId: string,
  tools?: string[],
): CommandOutput<'edge.connect'> {
  const c = capsule(ctx, sourceId);
  const s = server(ctx, targetId);
  const ws = ctx.workspace();
  const entry = manifestEntryFor(
    ws.dir,
    ws.capsule(sourceId).manifestPath,
    s.name,
    definitionOf(s),
    tools ? { tools } : {},
  );
  const before = c.allow.length;
  applyManifestOps(ctx, sourceId, [{ op: 'addMcpServer', server: { ...entry } }]);
  const allowAdded = ctx.view().capsules.find((x) => x.id === sourceId)!.allow.length > before;
  let message = `${c.name} may now use the tools of ${s.name}${tools ? ` (${tools.length ? tools.join(', ') : 'none of them'})` : ''}.`;
  if (allowAdded) message += ` ${s.url} was added to its allow list.`;
  message += changedNote(ctx);
  const edge = ctx.view().edges.find((e) => e.source === sourceId && e.target === s.id);
  if (!edge)
    throw new CoreError('internal', `The manifest was updated but no edge ${sourceId} -> ${s.id} is derived from it.`);
  return { edge, message };
}

export function disconnectToolServer(
  ctx: StudioContext,
  sourceId: string,
  targetId: string,
  opts: { quiet?: boolean } = {},
): CommandOutput<'edge.disconnect'> {
  const c = capsule(ctx, sourceId);
  const s = server(ctx, targetId);
  if (!ctx.view().edges.some((e) => e.source === sourceId && e.target === s.id)) {
    if (opts.quiet) return { revokedExport: false, message: '' };
    throw new CoreError('not_found', `${c.name} has no edge to the tool server ${s.name}.`);
  }
  applyManifestOps(ctx, sourceId, [{ op: 'removeMcpServer', name: s.name }]);
  return {
    revokedExport: false,
    message: `${c.name} may no longer use the tools of ${s.name}.${opts.quiet ? '' : changedNote(ctx)}`,
  };
}

/** ${VAR} references filled from the Studio's environment and secrets; a missing one fails with its name. */
function filled(
  def: ToolServerDefinition,
  name: string,
  env: Record<string, string | undefined>,
): ToolServerDefinition {
  const fill = (v: string) =>
    v.replace(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, key: string | undefined) => {
      if (key === undefined) return '${';
      const value = env[key];
      if (value === undefined)
        throw new CoreError(
          'invalid_input',
          `The tool server ${name} needs \${${key}}, which is not set (add it under Secrets).`,
        );
      return value;
    });
  const map = (m?: Record<string, string>) =>
    m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, fill(v)])) : undefined;
  return {
    ...def,
    ...(def.args ? { args: def.args.map(fill) } : {}),
    ...(def.env ? { env: map(def.env) } : {}),
    ...(def.headers ? { headers: map(def.headers) } : {}),
    ...(def.url ? { url: fill(def.url) } : {}),
  };
}

export function toolServerHandlers(
  ctx: StudioContext,
): Pick<
  Handlers,
  'mcp.addServer' | 'mcp.updateServer' | 'mcp.moveServer' | 'mcp.removeServer' | 'mcp.listTools' | 'edge.setTools'
> {
  return {
    'mcp.addServer'({ name, server: def, position }) {
      const ws = ctx.workspace();
      if (serverNamed(ctx.view().toolServers ?? [], name))
        throw new CoreError('conflict', `A tool server named ${name} is already in the formation.`);
      ws.addNode('tool_servers', { id: name, ...definitionOf(def), position });
      ctx.changed();
      return server(ctx, `mcp:${name}`);
    },
    'mcp.updateServer'({ id, server: def }) {
      const ws = ctx.workspace();
      const s = server(ctx, id);
      if (s.derived) ws.addNode('tool_servers', { id: s.name, ...definitionOf(def), position: s.position });
      else ws.updateNode('tool_servers', s.name, definitionOf(def));
      // Every capsule with an edge to it gets the new definition; its own tools and timeout stay.
      const updated: string[] = [];
      for (const c of ctx.view().capsules) {
        const use = c.mcpServers?.find((m) => m.name.toLowerCase() === s.name.toLowerCase());
        if (!use) continue;
        const entry = manifestEntryFor(ws.dir, c.manifestPath, use.name, def, {
          tools: use.tools,
          timeout: def.timeout === undefined ? use.timeout : undefined,
        });
        applyManifestOps(ctx, c.id, [
          { op: 'removeMcpServer', name: use.name },
          { op: 'addMcpServer', server: { ...entry } },
        ]);
        updated.push(c.id);
      }
      ctx.changed();
      return { updated };
    },
    'mcp.moveServer'({ id, position }) {
      const ws = ctx.workspace();
      const s = server(ctx, id);
      if (s.derived) ws.addNode('tool_servers', { id: s.name, ...definitionOf(s), position });
      else ws.moveNode('tool_servers', s.name, position);
      ctx.changed();
    },
    'mcp.removeServer'({ id }) {
      const ws = ctx.workspace();
      const s = server(ctx, id);
      // Its edges are permissions in the capsules' manifests: they go with the node.
      for (const c of ctx.view().capsules) disconnectToolServer(ctx, c.id, s.id, { quiet: true });
      if (!s.derived) ws.removeNode('tool_servers', s.name);
      ctx.changed();
    },
    async 'mcp.listTools'({ id }) {
      const s = server(ctx, id);
      const env = ctx.config.env ?? process.env;
      const def = filled(definitionOf(s), s.name, env);
      try {
        return await listMcpTools({ name: s.name, ...def } as never, {
          folder: ctx.workspace().dir,
          env,
          timeoutMs: LIST_TIMEOUT_MS,
          maxMessageBytes: LIST_MAX_BYTES,
        });
      } catch (err) {
        throw new CoreError('tool_server_unavailable', (err as Error).message.replace(/^mcp_\w+: /, ''));
      }
    },
    'edge.setTools'({ source, target, tools }) {
      const c = capsule(ctx, source);
      const s = server(ctx, target);
      const use = c.mcpServers?.find((m) => m.name.toLowerCase() === s.name.toLowerCase());
      if (!use) throw new CoreError('not_found', `${c.name} has no edge to the tool server ${s.name}.`);
      applyManifestOps(ctx, source, [{ op: 'setMcpTools', name: use.name, tools }]);
      const what = tools === null ? 'all of its tools' : tools.length ? tools.join(', ') : 'none of its tools';
      return { message: `${c.name} may use ${what} from ${s.name}.${changedNote(ctx)}` };
    },
  };
}
