import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerSpec } from '../../../src-shared/manifest';
import type { ResidueItem } from '../tool-types';
import { createMcpFetch } from './http';

// One MCP server of a session: connected on first need (the session asks at its start), its tool
// list kept until the server says it changed, reconnected after it went away. Everything the
// server sends is untrusted: a message over the size bound closes the connection, an answer that
// is not a tool result, an error, silence past the timeout or a crash each fail the one call with
// an McpCallError whose reason and words the model reads, and never throw past it.

type TraceFn = (event: { event_type: string } & Record<string, unknown>) => void;

export interface McpLimits {
  /** How long connecting and listing tools may take. */
  connectTimeoutMs: number;
  /** The most bytes of one message (stdio) or one response body (HTTP). */
  maxMessageBytes: number;
}

export const DEFAULT_MCP_LIMITS: McpLimits = { connectTimeoutMs: 15_000, maxMessageBytes: 4 * 1024 * 1024 };

export interface McpServerDeps {
  spec: McpServerSpec;
  /** The manifest's folder: a local server's cwd is relative to it. */
  folder: string;
  /** The capsule's environment: a local server gets only its PATH from it. */
  env: Record<string, string | undefined>;
  allow: () => readonly string[];
  trace: TraceFn;
  limits?: Partial<McpLimits>;
}

export type McpFailure =
  'mcp_unavailable' | 'mcp_timeout' | 'mcp_closed' | 'mcp_error' | 'mcp_bad_result' | 'mcp_tool_gone' | 'canceled';

export class McpCallError extends Error {
  constructor(
    readonly reason: McpFailure,
    message: string,
  ) {
    super(`${reason}: ${message}`);
  }
}

const MAX_NOTE = 500;

/** The promise, or a 'canceled' failure as soon as this caller's signal aborts (the work itself goes on for others). */
function whileNotAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new McpCallError('canceled', 'the task was canceled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new McpCallError('canceled', 'the task was canceled'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
const short = (s: string) => (s.length > MAX_NOTE ? `${s.slice(0, MAX_NOTE)}…` : s);

export class McpServerConnection {
  private client: Client | undefined;
  /** Rejects when the current connection is found dead (so a pending call fails at once, not at its timeout). */
  private death: Promise<never> | undefined;
  /** Declares the current connection dead (the transport refused to send). */
  private abandon: (() => void) | undefined;
  private connecting: Promise<Client> | undefined;
  private toolList: McpTool[] | undefined;
  private listing: Promise<McpTool[]> | undefined;
  private problem: string | undefined;
  private stderrTail = '';

  /** The name and version the connected server gave at initialize, when it is connected. */
  get serverVersion(): { name: string; version: string } | undefined {
    return this.client?.getServerVersion();
  }
  private startedAt = 0;
  private pid: number | undefined;
  private exitNote: string | undefined;
  private closed = false;
  /** Connecting and listing are shared by every caller: they run on the connection's own life, each caller waits on its own signal. */
  private readonly life = new AbortController();
  readonly limits: McpLimits;

  constructor(private readonly deps: McpServerDeps) {
    this.limits = { ...DEFAULT_MCP_LIMITS, ...deps.limits };
  }

  get name(): string {
    return this.deps.spec.name;
  }

  private transport(): Transport {
    const { spec } = this.deps;
    if (spec.url) {
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        redirectPolicy: 'follow',
        fetch: createMcpFetch({
          server: spec.name,
          allow: this.deps.allow,
          headers: spec.headers,
          trace: this.deps.trace,
          maxBytes: this.limits.maxMessageBytes,
        }),
      });
    }
    // The SDK adds its short list of harmless variables (HOME, USER, SHELL, TERM, …); nothing
    // else of the runtime's environment reaches the server but what the manifest gives it.
    const path = this.deps.env.PATH;
    const stdio = new StdioClientTransport({
      command: spec.command!,
      args: spec.args ?? [],
      env: { ...(path ? { PATH: path } : {}), ...spec.env },
      cwd: resolve(this.deps.folder, spec.cwd ?? '.'),
      stderr: 'pipe',
      maxBufferSize: this.limits.maxMessageBytes,
    });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    return stdio;
  }

  /** The connected client, connecting when there is none (one attempt at a time). */
  private connect(signal: AbortSignal): Promise<Client> {
    if (this.closed)
      return Promise.reject(
        new McpCallError('mcp_unavailable', `MCP server "${this.name}" was ended with the session`),
      );
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open(this.life.signal).finally(() => (this.connecting = undefined));
    return whileNotAborted(this.connecting, signal);
  }

  private async open(signal: AbortSignal): Promise<Client> {
    const { spec } = this.deps;
    const client = new Client({ name: 'capsule-studio', version: '1.0.0' }, { capabilities: {} });
    const transport = this.transport();
    this.problem = undefined;
    this.exitNote = undefined;
    let die!: (err: Error) => void;
    const death = new Promise<never>((_, reject) => (die = reject));
    death.catch(() => {});
    const gone = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.toolList = undefined;
      this.exitNote = this.stderrTail.trim()
        ? `its last words on stderr: ${short(this.stderrTail.trim().split('\n').slice(-3).join(' | '))}`
        : undefined;
      if (!this.closed)
        this.deps.trace({
          event_type: 'mcp_server_gone',
          mcp_server: this.name,
          ...(this.pid ? { pid: this.pid } : {}),
          ...(this.problem ? { problem: this.problem } : {}),
        });
      this.pid = undefined;
      die(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    };
    client.onerror = (err) => {
      // Malformed lines land here and the call goes on; an oversized message makes the stdio
      // transport close itself (its pid is gone at once): the connection is dead from then on.
      this.problem = short(err.message);
      this.deps.trace({ event_type: 'mcp_server_problem', mcp_server: this.name, problem: this.problem });
      if (transport instanceof StdioClientTransport && transport.pid === null) gone();
    };
    client.onclose = gone;
    this.abandon = gone;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      // The next turn lists again; a call to a tool that went away fails by name.
      this.toolList = undefined;
      this.deps.trace({ event_type: 'mcp_tools_changed', mcp_server: this.name });
    });
    try {
      await client.connect(transport, { signal, timeout: this.limits.connectTimeoutMs });
    } catch (err) {
      await client.close().catch(() => {});
      if (signal.aborted)
        throw new McpCallError(
          'mcp_unavailable',
          `MCP server "${this.name}" was ended with the session while it was starting`,
        );
      const why =
        err instanceof McpError && err.code === ErrorCode.RequestTimeout
          ? `it did not answer initialize within ${this.limits.connectTimeoutMs} ms`
          : short((err as Error).message);
      this.deps.trace({ event_type: 'mcp_server_unavailable', mcp_server: this.name, reason: why });
      throw new McpCallError(
        'mcp_unavailable',
        `MCP server "${this.name}" could not be reached: ${why}${this.stderrTail ? ` (stderr: ${short(this.stderrTail.trim())})` : ''}`,
      );
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new McpCallError('mcp_unavailable', `MCP server "${this.name}" was ended with the session`);
    }
    this.client = client;
    this.death = death;
    this.startedAt = Date.now();
    this.pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    const info = client.getServerVersion();
    this.deps.trace({
      event_type: 'mcp_server_start',
      mcp_server: this.name,
      transport: spec.url ? 'streamable_http' : 'stdio',
      ...(spec.url ? { url: spec.url } : { command: spec.command }),
      ...(this.pid ? { pid: this.pid } : {}),
      ...(info ? { server_name: short(info.name), server_version: short(info.version) } : {}),
    });
    return client;
  }

  /** The server's tools (connecting first when needed); cached until the server says they changed. */
  async tools(signal: AbortSignal): Promise<McpTool[]> {
    if (this.toolList && this.client) return this.toolList;
    const client = await this.connect(signal);
    const life = this.life.signal;
    this.listing ??= (async () => {
      const all: McpTool[] = [];
      let cursor: string | undefined;
      // A server that pages forever is cut off after a few pages.
      for (let page = 0; page < 20; page++) {
        const res = await client.listTools(cursor ? { cursor } : undefined, {
          signal: life,
          timeout: this.limits.connectTimeoutMs,
        });
        all.push(...res.tools);
        cursor = res.nextCursor;
        if (!cursor || all.length >= 1000) break;
      }
      this.toolList = all;
      return all;
    })()
      .catch((err: unknown) => {
        throw new McpCallError(
          'mcp_unavailable',
          `MCP server "${this.name}" did not list its tools: ${short((err as Error).message)}`,
        );
      })
      .finally(() => (this.listing = undefined));
    return whileNotAborted(this.listing, signal);
  }

  /** Calls one tool; a cancel (signal) sends notifications/cancelled and fails the call at once. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<CallToolResult> {
    const listed = await this.tools(signal);
    if (!listed.some((t) => t.name === tool))
      throw new McpCallError(
        'mcp_tool_gone',
        `MCP server "${this.name}" no longer offers the tool "${tool}" (its tool list changed)`,
      );
    const client = await this.connect(signal);
    const death = this.death!;
    this.problem = undefined;
    try {
      return (await Promise.race([
        client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout: timeoutMs,
          maxTotalTimeout: timeoutMs,
        }),
        death,
      ])) as CallToolResult;
    } catch (err) {
      if ((err as Error)?.message === 'Not connected') this.abandon?.();
      throw this.failure(err, tool, signal, timeoutMs);
    }
  }

  private failure(err: unknown, tool: string, signal: AbortSignal, timeoutMs: number): McpCallError {
    const also = this.problem ? ` (the server also sent something unreadable: ${this.problem})` : '';
    if (signal.aborted)
      return new McpCallError(
        'canceled',
        `the call to ${this.name}/${tool} was canceled (notifications/cancelled sent)`,
      );
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
      return new McpCallError(
        'mcp_timeout',
        `MCP server "${this.name}" did not answer ${tool} within ${timeoutMs} ms (capabilities.mcp.servers[].timeout)${also}`,
      );
    if (
      (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) ||
      (err as Error)?.message === 'Not connected'
    ) {
      const why = this.problem ?? this.exitNote;
      return new McpCallError(
        'mcp_closed',
        `MCP server "${this.name}" went away during ${tool}${why ? ` (${why})` : ''}; the next call starts it again`,
      );
    }
    if (err instanceof McpError)
      return new McpCallError(
        'mcp_error',
        `MCP server "${this.name}" answered ${tool} with an error: ${short(err.message)}`,
      );
    if ((err as Error)?.name === 'ZodError' || (err as Error)?.name === '$ZodError')
      return new McpCallError(
        'mcp_bad_result',
        `MCP server "${this.name}" answered ${tool} with something that is not a tool result`,
      );
    return new McpCallError(
      'mcp_error',
      `MCP server "${this.name}" failed during ${tool}: ${short((err as Error)?.message ?? String(err))}${also}`,
    );
  }

  /** The local server process still running, as StopSession's residue names it. */
  residue(): ResidueItem | undefined {
    if (!this.client || !this.pid) return undefined;
    const { spec } = this.deps;
    return {
      kind: 'mcp_server',
      server: spec.name,
      pid: this.pid,
      command: [spec.command!, ...(spec.args ?? [])].join(' '),
      started_at_ms: this.startedAt,
    };
  }

  /** Ends the connection: stdin closed, then SIGTERM, then SIGKILL after the SDK's grace periods. */
  async close(): Promise<void> {
    this.closed = true;
    this.life.abort();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    if (!client) return;
    const pid = this.pid;
    await client.close().catch(() => {});
    this.deps.trace({ event_type: 'mcp_server_end', mcp_server: this.name, ...(pid ? { pid } : {}) });
  }
}
