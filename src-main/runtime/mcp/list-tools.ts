import type { McpServerSpec } from '../../../src-shared/manifest';
import { McpCallError, McpServerConnection } from './connection';

// Lists a server's tools for the Studio (a tool server node), outside any session: the same
// connection a session uses (environment cut to PATH plus the server's own env, allow list checked
// for a remote one, messages bounded), ended as soon as the list is read, bounded in time as a whole.

export interface ListedTools {
  tools: { name: string; description?: string }[];
  server?: { name: string; version: string };
}

const MAX_TOOLS = 500;
const MAX_DESCRIPTION = 1000;

export async function listMcpTools(
  spec: McpServerSpec,
  opts: { folder: string; env: Record<string, string | undefined>; timeoutMs: number; maxMessageBytes: number },
): Promise<ListedTools> {
  const conn = new McpServerConnection({
    spec,
    folder: opts.folder,
    env: opts.env,
    // The user asked for this server by its own URL: that one place (and its paths) only.
    allow: () => (spec.url ? [spec.url] : []),
    trace: () => {},
    limits: { connectTimeoutMs: opts.timeoutMs, maxMessageBytes: opts.maxMessageBytes },
  });
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(), opts.timeoutMs);
  try {
    const tools = await conn.tools(timer.signal);
    const info = conn.serverVersion;
    return {
      tools: tools.slice(0, MAX_TOOLS).map((tool) => ({
        name: tool.name.slice(0, 200),
        ...(tool.description ? { description: tool.description.slice(0, MAX_DESCRIPTION) } : {}),
      })),
      ...(info
        ? { server: { name: String(info.name).slice(0, 200), version: String(info.version).slice(0, 100) } }
        : {}),
    };
  } catch (err) {
    if (timer.signal.aborted)
      throw new McpCallError(
        'mcp_timeout',
        `MCP server "${spec.name}" did not list its tools within ${opts.timeoutMs} ms`,
      );
    throw err;
  } finally {
    clearTimeout(t);
    await conn.close().catch(() => {});
  }
}
