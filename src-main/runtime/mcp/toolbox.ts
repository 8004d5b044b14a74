import { durationMs, type McpServerSpec } from '../../../src-shared/manifest';
import type { ResidueItem, Tool, ToolOutcome } from '../tool-types';
import { McpCallError, McpServerConnection, type McpLimits } from './connection';
import { recordedParts, resultContent } from './content';
import { modelToolNames } from './names';

// The MCP tools of a session: one connection per server of capabilities.mcp.servers, started
// when the session starts, and before each model turn the tools the manifest allows, named so
// that no two servers' tools collide. A server that cannot be reached is traced and offers no
// tools that turn; the capsule goes on.

type TraceFn = (event: { event_type: string } & Record<string, unknown>) => void;

export interface McpToolboxDeps {
  servers: readonly McpServerSpec[];
  folder: string;
  env: Record<string, string | undefined>;
  allow: () => readonly string[];
  trace: TraceFn;
  limits?: Partial<McpLimits>;
}

export interface McpToolbox {
  /** Connects every server in the background (failures are traced, never thrown). */
  start(): void;
  /** The tools to offer this turn, waiting for servers still connecting (bounded, abortable). */
  tools(signal: AbortSignal): Promise<Tool[]>;
  /** Local server processes still running. */
  residue(): ResidueItem[];
  dispose(): Promise<void>;
}

const DEFAULT_CALL_TIMEOUT_MS = 60_000;

function mcpTool(
  conn: McpServerConnection,
  spec: McpServerSpec,
  modelName: string,
  tool: { name: string; description?: string; inputSchema: Record<string, unknown> },
): Tool {
  const timeoutMs = durationMs(spec.timeout, DEFAULT_CALL_TIMEOUT_MS);
  return {
    spec: {
      name: modelName,
      description: `${tool.description ?? ''} (tool ${tool.name} of the MCP server ${spec.name})`.trim(),
      parameters: tool.inputSchema,
    },
    traceFields: { mcp_server: spec.name, mcp_tool: tool.name },
    async run(args, ctx): Promise<ToolOutcome> {
      const started = Date.now();
      const call = new AbortController();
      const onAbort = () => call.abort(ctx.signal.reason);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      if (ctx.signal.aborted) onAbort();
      // A cancel reads the call in flight; aborting it sends notifications/cancelled to the server.
      const untrack = ctx.track({
        describe: () => `MCP call ${spec.name}/${tool.name}`,
        cancel: async () => void call.abort(),
      });
      try {
        const result = await conn.call(tool.name, args, call.signal, timeoutMs);
        const { text, parts } = resultContent(result.content, result.structuredContent);
        // The parts are kept in the trace (when not too big) so a rehearsal hands them on again.
        const kept = parts.length ? recordedParts(parts) : undefined;
        ctx.traceResult?.({
          duration_ms: Date.now() - started,
          bytes: Buffer.byteLength(text),
          ...(parts.length ? { parts: parts.length } : {}),
          ...(kept ? { result_parts: kept } : {}),
        });
        if (result.isError) return { ok: false, error: `MCP tool ${spec.name}/${tool.name} failed: ${text}` };
        return { ok: true, content: text, ...(parts.length ? { parts } : {}) };
      } catch (err) {
        const reason = err instanceof McpCallError ? err.reason : 'mcp_error';
        ctx.traceResult?.({ duration_ms: Date.now() - started, failure: reason });
        return { ok: false, error: err instanceof McpCallError ? err.message : `mcp_error: ${(err as Error).message}` };
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
        untrack();
      }
    },
  };
}

export function createMcpToolbox(deps: McpToolboxDeps): McpToolbox {
  const servers = deps.servers.map((spec) => ({
    spec,
    conn: new McpServerConnection({
      spec,
      folder: deps.folder,
      env: deps.env,
      allow: deps.allow,
      trace: deps.trace,
      limits: deps.limits,
    }),
  }));
  const starting = new AbortController();

  async function toolsOf({ spec, conn }: (typeof servers)[number], signal: AbortSignal): Promise<Tool[]> {
    let listed;
    try {
      listed = await conn.tools(signal);
    } catch {
      return []; // traced by the connection (mcp_server_unavailable)
    }
    const allowed = spec.tools ? listed.filter((t) => spec.tools!.includes(t.name)) : listed;
    const names = modelToolNames(
      spec.name,
      allowed.map((t) => t.name),
    );
    const byName = new Map(allowed.map((t) => [t.name, t]));
    return [...names].map(([modelName, name]) => mcpTool(conn, spec, modelName, byName.get(name)!));
  }

  return {
    start() {
      for (const s of servers) void s.conn.tools(starting.signal).catch(() => {});
    },
    async tools(signal) {
      return (await Promise.all(servers.map((s) => toolsOf(s, signal)))).flat();
    },
    residue: () => servers.map((s) => s.conn.residue()).filter((r): r is ResidueItem => r !== undefined),
    async dispose() {
      starting.abort();
      await Promise.all(servers.map((s) => s.conn.close()));
    },
  };
}
