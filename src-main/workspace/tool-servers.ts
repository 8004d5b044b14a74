import { dirname, relative, resolve, sep } from 'node:path';
import {
  toolServerId,
  type CapsuleView,
  type EdgeView,
  type McpUseView,
  type ToolServerDefinition,
  type ToolServerView,
} from '../../src-shared/contract';
import { matchAllow } from '../../src-shared/manifest';
import type { WorkspaceSnapshot } from './workspace';

// Tool servers (MCP) as the canvas draws them. formation.yaml's `tool_servers` define them, with
// paths relative to the workspace folder; a manifest entry is the permission and holds the same
// definition with its `cwd` leading from the manifest's folder to the same place. A server only
// manifests name is drawn too (derived), its definition read back from the first such entry.

const DEF_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'timeout'] as const;
const posix = (p: string) => p.split(sep).join('/');

/** The definition fields of an entry or view, nothing else. */
export function definitionOf(x: ToolServerDefinition): ToolServerDefinition {
  const out: Record<string, unknown> = {};
  for (const k of DEF_KEYS) if (x[k] !== undefined) out[k] = x[k];
  return out as ToolServerDefinition;
}

/** A folder relative to `from`, as a manifest or formation.yaml writes it (undefined for "here"). */
function relativeFolder(from: string, to: string): string | undefined {
  const rel = posix(relative(from, to));
  return rel === '' ? undefined : rel;
}

/** The manifest entry for a formation's server: its definition with `cwd` seen from the manifest's folder. */
export function manifestEntryFor(
  wsDir: string,
  manifestPath: string,
  name: string,
  def: ToolServerDefinition,
  keep: { tools?: string[]; timeout?: ToolServerDefinition['timeout'] } = {},
): McpUseView {
  const out: Record<string, unknown> = { name, ...definitionOf(def) };
  if (def.command !== undefined) {
    const cwd = relativeFolder(dirname(resolve(wsDir, manifestPath)), resolve(wsDir, def.cwd ?? '.'));
    if (cwd === undefined) delete out.cwd;
    else out.cwd = cwd;
  }
  if (keep.timeout !== undefined) out.timeout = keep.timeout;
  if (keep.tools !== undefined) out.tools = keep.tools;
  return out as unknown as McpUseView;
}

/** A manifest entry's definition with `cwd` seen from the workspace folder (for a derived node). */
function definitionFromEntry(wsDir: string, manifestPath: string, entry: McpUseView): ToolServerDefinition {
  const def = definitionOf(entry) as Record<string, unknown>;
  if (entry.command !== undefined) {
    const cwd = relativeFolder(wsDir, resolve(dirname(resolve(wsDir, manifestPath)), entry.cwd ?? '.'));
    if (cwd === undefined) delete def.cwd;
    else def.cwd = cwd;
  }
  return def as ToolServerDefinition;
}

export function toolServerViews(snap: WorkspaceSnapshot): ToolServerView[] {
  const views: ToolServerView[] = snap.toolServers.map((t) => ({
    id: toolServerId(t.id),
    name: t.id,
    ...t.def,
    position: t.position,
    ...(t.unplaced ? { unplaced: true as const } : {}),
  }));
  const known = new Set(views.map((v) => v.name.toLowerCase()));
  for (const c of snap.capsules) {
    for (const entry of c.summary.mcpServers) {
      if (known.has(entry.name.toLowerCase())) continue;
      known.add(entry.name.toLowerCase());
      views.push({
        id: toolServerId(entry.name),
        name: entry.name,
        ...definitionFromEntry(snap.dir, c.manifestPath, entry),
        position: { x: 0, y: 0 },
        derived: true,
      });
    }
  }
  return views;
}

/** The server a name means (names compare without case, as in a manifest). */
export function serverNamed(servers: readonly ToolServerView[], name: string): ToolServerView | undefined {
  return servers.find((s) => s.name.toLowerCase() === name.toLowerCase());
}

/** One edge per MCP entry of a capsule; the allow entries a remote server's URL needs are part of it, not external edges. */
export function withToolServerEdges(
  edges: EdgeView[],
  capsules: readonly CapsuleView[],
  servers: readonly ToolServerView[],
): EdgeView[] {
  const urls = new Map(capsules.map((c) => [c.id, (c.mcpServers ?? []).flatMap((m) => (m.url ? [m.url] : []))]));
  const kept = edges.filter(
    (e) => e.targetKind !== 'external' || !urls.get(e.source)?.some((u) => matchAllow(u, [e.address]) !== undefined),
  );
  for (const c of capsules) {
    for (const m of c.mcpServers ?? []) {
      const server = serverNamed(servers, m.name);
      if (!server) continue;
      kept.push({
        id: `${c.id}->${server.id}`,
        source: c.id,
        target: server.id,
        targetKind: 'tool_server',
        address: server.name,
        ...(m.tools ? { tools: m.tools } : {}),
      });
    }
  }
  return kept;
}
