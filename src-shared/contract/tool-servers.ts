import { command, runsHere, runsWithCapsule } from './command';
import { z } from 'zod';
import type { Position } from './types';

// Tool servers (MCP) on the canvas. A formation lists the servers it offers (formation.yaml
// `tool_servers`: name, definition, position); an edge capsule -> tool server IS the capsule's
// manifest entry in capabilities.mcp.servers (the permission), so edges are derived, never stored.
// A manifest entry naming a server the formation does not list still draws as a node (derived).

/** The canvas id of a tool server node: `mcp:<name>`. */
export const toolServerId = (name: string) => `mcp:${name}`;
export const isToolServerId = (id: string) => id.startsWith('mcp:');

const serverName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/i, 'letters, digits or dashes (max 32)');
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');
const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'an HTTP header name');
const text = z.string().max(4000);

/**
 * What starts or reaches a tool server. Paths (`cwd`, and `args` run in it) are relative to the
 * workspace folder; a manifest in a subfolder gets the `cwd` that leads to the same place.
 * Secrets are written as `${VAR}`.
 */
export const toolServerDefinition = z
  .strictObject({
    command: z.string().min(1).max(1000).optional(),
    args: z.array(text).max(100).optional(),
    env: z.record(envName, text).optional(),
    cwd: z.string().min(1).max(1000).optional(),
    url: z
      .url({ protocol: /^https?$/, error: 'an http(s) URL' })
      .max(2000)
      .optional(),
    headers: z.record(headerName, text).optional(),
    timeout: z
      .union([
        z.number().nonnegative(),
        z.string().regex(/^\d+(ms|s|m|h)$/, 'a duration such as 500ms, 30s, 10m or 1h'),
      ])
      .optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.command === undefined) === (s.url === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'a tool server has exactly one of command (a local process) or url (a remote server)',
      });
    const wrong = s.url !== undefined ? (['args', 'env', 'cwd'] as const) : (['headers'] as const);
    for (const key of wrong)
      if (s[key] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} does not go with ${s.url !== undefined ? 'a url' : 'a command'}`,
        });
  });
export type ToolServerDefinition = z.infer<typeof toolServerDefinition>;

/** A tool server node. */
export interface ToolServerView extends ToolServerDefinition {
  /** `mcp:<name>` */
  id: string;
  /** The server's name in manifests: the model sees its tools as `<name>__<tool>`. */
  name: string;
  position: Position;
  unplaced?: true;
  /** Not in formation.yaml: drawn because a manifest names it (its definition is that manifest's entry). */
  derived?: true;
}

/** One tool a server lists (tools/list), trimmed for a node. */
export interface ToolServerTool {
  name: string;
  description?: string;
}

/** One MCP call through a tool server, as the canvas shows it (derived from the trace lines). */
export interface ToolCallView {
  capsuleId: string;
  sessionId: string;
  taskId?: string;
  callId: string;
  /** The server's name. */
  server: string;
  tool: string;
  state: 'running' | 'ok' | 'failed';
  /** When the call started (ms since epoch). */
  at: number;
  durationMs?: number;
}

const id = z.string().min(1).max(200);
const position = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

export const toolServerCommands = {
  'mcp.addServer': command<ToolServerView>()(
    'Adds a tool server (MCP) to formation.yaml `tool_servers` at a position: a local process (command, args, env, cwd) or a remote URL (headers).',
    z.strictObject({ name: serverName, server: toolServerDefinition, position }),
    runsHere,
  ),
  'mcp.updateServer': command<{ updated: string[] }>()(
    "Changes a tool server's definition in formation.yaml and in the manifest entry of every capsule with an edge to it (their `tools` and `timeout` kept); `updated` names those capsules. A derived server is added to formation.yaml.",
    z.strictObject({ id, server: toolServerDefinition }),
    runsHere,
  ),
  'mcp.moveServer': command<void>()(
    'Moves a tool server node (a derived one is added to formation.yaml).',
    z.strictObject({ id, position }),
    runsHere,
  ),
  'mcp.removeServer': command<void>()(
    "Removes a tool server and its edges: the server's entry goes from every manifest that names it, with the allow entries those edges added.",
    z.strictObject({ id }),
    runsHere,
  ),
  'mcp.listTools': command<{ tools: ToolServerTool[]; server?: { name: string; version: string } }>()(
    'Starts or reaches the tool server and lists its tools (tools/list, with descriptions), within 10 s and 4 MiB; a local server starts with only PATH and its own env. Fails with one line (not found, crashed, refused) and nothing is left running.',
    z.strictObject({ id }),
    runsHere,
  ),
  'edge.setTools': command<{ message: string }>()(
    "Narrows which tools of a tool server a capsule may call: the `tools` of its manifest entry (null: all of the server's tools).",
    z.strictObject({ source: id, target: id, tools: z.array(z.string().min(1).max(200)).max(1000).nullable() }),
    runsWithCapsule('source'),
  ),
};
