import { z } from 'zod';

// Residue: what a canceled task or a stopped session leaves behind (docs/door.md, "Cancel and residue"; "What the cancel
// names"). CancelTask carries it as an artifact named `residue` with one data part per item;
// murmur.StopSession as a `residue` array. Doors are other programs, so every item is parsed here,
// once, for the CLI, the Studio and the tests alike; anything that is not an item is skipped.

const detachedShell = z.object({
  kind: z.literal('detached_shell'),
  work_id: z.string(),
  binary: z.string(),
  command: z.string(),
  started_at_ms: z.number(),
});

const delegation = z.object({
  kind: z.literal('delegation'),
  delegation_id: z.string(),
  capsule: z.string(),
  version: z.string(),
  child_session_id: z.string(),
  child_workdir: z.string(),
});

/** A local MCP server process the session started; it is ended with the session. */
const mcpServer = z.object({
  kind: z.literal('mcp_server'),
  server: z.string(),
  pid: z.number(),
  command: z.string(),
  started_at_ms: z.number(),
});

export const residueItemSchema = z.discriminatedUnion('kind', [detachedShell, delegation, mcpServer]);

/** Something a canceled task or stopped session left behind: a detached shell command, a delegation it ended, or a running MCP server. */
export type ResidueItem = z.infer<typeof residueItemSchema>;

/** At most this many items are read from one answer (a door could send millions). */
export const MAX_RESIDUE_ITEMS = 1000;

/** One residue item, or undefined when the value is not one. */
export function parseResidueItem(value: unknown): ResidueItem | undefined {
  const r = residueItemSchema.safeParse(value);
  return r.success ? r.data : undefined;
}

/** Residue items from a list (murmur.StopSession's `residue`). */
export function parseResidueList(value: unknown): ResidueItem[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, MAX_RESIDUE_ITEMS)
    .map(parseResidueItem)
    .filter((r): r is ResidueItem => r !== undefined);
}

interface TaskLike {
  artifacts?: readonly { artifactId?: string; name?: string; parts?: readonly object[] }[];
}

/** The residue a task carries (CancelTask's answer): its `residue` artifact, one item per data part. */
export function residueOfTask(task: TaskLike | undefined): ResidueItem[] {
  const artifact = task?.artifacts?.find((a) => a.artifactId === 'residue' || a.name === 'residue');
  return parseResidueList((artifact?.parts ?? []).map((p) => (p as { data?: unknown }).data));
}

/** How an item reads to a person: a detached shell is still running; a delegation was ended by the cancel. */
export function describeResidue(item: ResidueItem): { status: 'running' | 'ended'; text: string } {
  if (item.kind === 'detached_shell') return { status: 'running', text: item.command };
  if (item.kind === 'mcp_server')
    return { status: 'running', text: `MCP server ${item.server} (${item.command}, pid ${item.pid})` };
  return { status: 'ended', text: `${item.capsule}${item.child_session_id ? ` (${item.child_session_id})` : ''}` };
}

/** The key that names an item once (a work id or a delegation id). */
export const residueKey = (item: ResidueItem): string =>
  item.kind === 'detached_shell'
    ? item.work_id
    : item.kind === 'mcp_server'
      ? `mcp:${item.server}`
      : item.delegation_id;
