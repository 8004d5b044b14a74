import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessEntry } from './access-log';
import type { ExposureStore } from './exposures';
import { guard, type GuardResult, type OriginSettings } from './guard';
import { callCapsuleTool, capsuleTool, toolNames, type CapsuleTool } from './mcp-tools';
import type { ResolveCapsule } from './types';

// The gateway's MCP endpoint (Streamable HTTP, at /mcp): the capsules a bearer token opens, one
// tool each, for MCP clients (desktop assistants, IDEs). The same front door as A2A (Origin,
// bearer token, body limit, access log); each MCP session belongs to the token that opened it and
// ends when that token is revoked or rotated, after MCP_LIMITS.idleMs without a request, or on
// DELETE. Past maxSessions a new session is refused with 503 and Retry-After, never a reset.

export const MCP_PATH = '/mcp';

export interface McpLimits {
  maxSessions: number;
  /** Sessions one token may hold at once (so one client cannot take them all). */
  maxSessionsPerToken: number;
  idleMs: number;
  /** Tool calls running at once in one session. */
  maxCallsPerSession: number;
  /** The most a tool call waits for its task (then the task is canceled). */
  maxCallMs: number;
}

export const MCP_LIMITS: McpLimits = {
  maxSessions: 32,
  maxSessionsPerToken: 8,
  idleMs: 15 * 60_000,
  maxCallsPerSession: 8,
  maxCallMs: 60 * 60_000,
};

type Logged = Pick<AccessEntry, 'tokenId' | 'capsule' | 'method' | 'status' | 'outcome'>;

export interface McpEndpointDeps {
  exposures: ExposureStore;
  settings: OriginSettings;
  resolveCapsule: ResolveCapsule;
  log(req: FastifyRequest, started: number, entry: Logged): void;
  refused(
    req: FastifyRequest,
    started: number,
    g: Extract<GuardResult, { ok: false }>,
    capsule: string | null,
    method: string,
  ): void;
  limits?: Partial<McpLimits>;
}

interface McpSession {
  id: string;
  tokenId: string;
  capsule: string;
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** Running tool calls by JSON-RPC request id: aborting one cancels its task. */
  calls: Map<string, AbortController>;
}

export interface McpEndpoint {
  sessionCount(): number;
  close(): Promise<void>;
}

const RETRY_AFTER_S = 1;
const SWEEP_MS = 30_000;

const rpcError = (
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) =>
  reply
    .code(status)
    .headers({ 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));

/** The JSON-RPC messages of a POST body (one or a batch), or undefined when it is not JSON. */
function messagesOf(body: unknown): { parsed: unknown; list: Record<string, unknown>[] } | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const list = (Array.isArray(parsed) ? parsed : [parsed]).filter(
      (m): m is Record<string, unknown> => !!m && typeof m === 'object',
    );
    return { parsed, list };
  } catch {
    return undefined;
  }
}

export function mountMcpEndpoint(app: FastifyInstance, deps: McpEndpointDeps): McpEndpoint {
  const limits = { ...MCP_LIMITS, ...deps.limits };
  const sessions = new Map<string, McpSession>();
  /** Answers in progress (SSE streams among them), ended when the gateway closes. */
  const open = new Set<FastifyReply['raw']>();

  const end = (s: McpSession) => {
    if (!sessions.delete(s.id)) return;
    for (const c of s.calls.values()) c.abort();
    void s.server.close().catch(() => undefined);
  };
  const offRevoked = deps.exposures.onRevoked((ids) => {
    for (const s of [...sessions.values()]) if (ids.includes(s.tokenId)) end(s);
  });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const s of [...sessions.values()]) if (s.calls.size === 0 && now - s.lastUsed > limits.idleMs) end(s);
    },
    Math.min(SWEEP_MS, limits.idleMs),
  );
  sweep.unref();

  /** The tools of a token: one per capsule it opens that runs now. */
  const toolsOf = async (tokenId: string): Promise<CapsuleTool[]> => {
    const opened = deps.exposures
      .list()
      .filter((e) => e.tokenId === tokenId)
      .map((e) => e.capsule)
      .sort();
    const names = toolNames(opened);
    const tools: CapsuleTool[] = [];
    for (const capsule of opened) {
      const cap = await deps.resolveCapsule(capsule);
      if (cap) tools.push(capsuleTool(capsule, names.get(capsule)!, cap));
    }
    return tools;
  };

  const start = (tokenId: string, capsule: string): McpSession => {
    const server = new Server(
      { name: 'capsule-studio-gateway', title: 'Capsule Studio gateway', version: '1.0.0' },
      {
        capabilities: { tools: { listChanged: false } },
        instructions:
          'Each tool is a Capsule Studio capsule (an agent or a formation of agents). A call runs one task and answers with its result; canceling the call cancels the task and its delegations.',
      },
    );
    const s: McpSession = {
      id: '',
      tokenId,
      capsule,
      server,
      lastUsed: Date.now(),
      calls: new Map(),
      transport: undefined as never,
    };
    s.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        s.id = id;
        sessions.set(id, s);
      },
      onsessionclosed: () => end(s),
    });
    s.transport.onclose = () => end(s);
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await toolsOf(tokenId)).map((t) => t.tool),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const t = (await toolsOf(tokenId)).find((x) => x.tool.name === request.params.name);
      if (!t)
        throw protocolError(
          ErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(request.params.name).slice(0, 80)}: this token opens ${(await toolsOf(tokenId)).map((x) => x.tool.name).join(', ') || 'no running capsule'}.`,
        );
      if (s.calls.size >= limits.maxCallsPerSession) {
        return {
          content: [
            {
              type: 'text',
              text: `Busy: this MCP session already runs ${limits.maxCallsPerSession} calls; retry when one ends.`,
            },
          ],
          isError: true,
        };
      }
      const key = String(extra.requestId);
      const abort = new AbortController();
      s.calls.set(key, abort);
      const progressToken = request.params._meta?.progressToken;
      try {
        return await callCapsuleTool(t, request.params.arguments, {
          signal: AbortSignal.any([extra.signal, abort.signal]),
          maxWaitMs: limits.maxCallMs,
          progress:
            progressToken === undefined
              ? undefined
              : (progress, message) =>
                  void extra
                    .sendNotification({
                      method: 'notifications/progress',
                      params: { progressToken, progress, message },
                    })
                    .catch(() => undefined),
        });
      } finally {
        s.calls.delete(key);
        s.lastUsed = Date.now();
      }
    });
    return s;
  };

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const started = Date.now();
    const method = `${req.method} ${MCP_PATH}`;
    const g = guard(req, reply, deps.exposures, deps.settings);
    if (!g.ok) return deps.refused(req, started, g, null, method);
    const { tokenId, capsule } = g.exposure;
    const logged = (status: number, outcome: string, what = method) =>
      deps.log(req, started, { tokenId, capsule, method: what, status, outcome });

    const sid = req.headers['mcp-session-id'];
    let body: ReturnType<typeof messagesOf>;
    if (req.method === 'POST') {
      body = messagesOf(req.body);
      if (!body) {
        rpcError(reply, 400, ErrorCode.ParseError, 'Parse error: the body is not JSON.');
        return logged(400, 'bad_request');
      }
    }
    const rpcMethods = body?.list.map((m) => (typeof m.method === 'string' ? m.method : 'response')).join(',') ?? '';
    const what = rpcMethods ? `MCP ${rpcMethods}`.slice(0, 120) : method;

    let s: McpSession | undefined;
    if (typeof sid === 'string') {
      s = sessions.get(sid);
      // Another token's session is as unknown as an ended one.
      if (!s || s.tokenId !== tokenId) {
        rpcError(reply, 404, -32001, 'Session not found (ended, expired or never opened): initialize a new one.');
        return logged(404, 'not_found', what);
      }
    } else if (req.method === 'POST' && body!.list.some((m) => m.method === 'initialize')) {
      // One token cannot hold every session: past its share, it waits like everyone past the cap.
      const mine = [...sessions.values()].filter((x) => x.tokenId === tokenId).length;
      if (sessions.size >= limits.maxSessions || mine >= limits.maxSessionsPerToken) {
        rpcError(
          reply,
          503,
          -32000,
          `gateway_busy: at most ${limits.maxSessions} MCP sessions at once, ${limits.maxSessionsPerToken} per token; retry after ${RETRY_AFTER_S} s.`,
          { 'retry-after': String(RETRY_AFTER_S) },
        );
        return logged(503, 'busy', what);
      }
      s = start(tokenId, capsule);
      await s.server.connect(s.transport);
    } else {
      rpcError(
        reply,
        400,
        ErrorCode.InvalidRequest,
        'Bad Request: Mcp-Session-Id header is required (initialize first).',
      );
      return logged(400, 'bad_request', what);
    }
    s.lastUsed = Date.now();

    // The caller went away before its answers were complete: cancel the tasks its calls started.
    const ids = (body?.list ?? [])
      .filter((m) => m.method === 'tools/call' && m.id !== undefined)
      .map((m) => String(m.id));
    const session = s;
    open.add(reply.raw);
    reply.raw.on('close', () => {
      open.delete(reply.raw);
      session.lastUsed = Date.now();
      if (!reply.raw.writableFinished) for (const id of ids) session.calls.get(id)?.abort();
      logged(reply.raw.statusCode, reply.raw.writableFinished ? 'ok' : 'closed', what);
    });
    reply.hijack();
    try {
      await s.transport.handleRequest(req.raw, reply.raw, body?.parsed);
    } catch {
      // The transport failed this one request (a broken stream): it ends here, the gateway runs on.
      if (!reply.raw.headersSent)
        reply.raw
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } }));
      else reply.raw.destroy();
    }
  };

  app.post(MCP_PATH, handle);
  app.get(MCP_PATH, handle);
  app.delete(MCP_PATH, handle);

  return {
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      offRevoked();
      for (const s of [...sessions.values()]) end(s);
      for (const raw of [...open]) raw.destroy();
    },
  };
}

/**
 * A JSON-RPC error the SDK sends as is. Its own McpError writes "MCP error <code>:" into the message,
 * and the client adds the prefix again on its side, so callers read it twice.
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
