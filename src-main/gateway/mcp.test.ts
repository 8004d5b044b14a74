import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, waitFor, type ManifestInput, type TestSession } from '../runtime/testing';
import { agentCardOf } from '../door';
import { createGateway, type Gateway, type McpLimits } from './index';
import { sessionCapsule } from './session-capsule';

// The gateway's MCP endpoint driven by the MCP SDK's own client (Streamable HTTP), against
// rehearsal capsules of this process: what is listed, what a call answers, what is refused, and
// that canceling a call cancels the task down an orchestrator -> worker formation.

const owned: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const o of owned.splice(0).reverse()) await o.close().catch(() => undefined);
});

async function capsule(manifest: ManifestInput): Promise<TestSession> {
  const ts = await startTestSession(manifest);
  owned.push({ close: () => ts.dispose() });
  return ts;
}

async function gatewayFor(capsules: TestSession[], mcpLimits: Partial<McpLimits> = {}): Promise<Gateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'capsule-mcp-'));
  const byName = new Map(capsules.map((c) => [c.session.manifest.name, c.session]));
  const gateway = await createGateway({
    dataDir,
    port: 0,
    mcpLimits,
    resolveCapsule: (n) => (byName.has(n) ? sessionCapsule(byName.get(n)!) : undefined),
  });
  owned.push({ close: async () => (await gateway.close(), rmSync(dataDir, { recursive: true, force: true })) });
  return gateway;
}

async function connect(gateway: Gateway, token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(gateway.urlsOf('x').mcp), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  owned.push({ close: () => client.close() });
  return client;
}

const reply = (text: string) => ({ inference: { rehearsal: { replies: [{ turns: [{ text }] }] } } });
const textOf = (r: any) => r.content.map((c: { text?: string }) => c.text ?? '').join('');

describe('the gateway as an MCP server', () => {
  it('lists one tool per capsule the token opens, with its contracts as schemas; an unexposed capsule is not listed', async () => {
    const accepts = {
      type: 'object',
      properties: { topic: { type: 'string', minLength: 2 } },
      required: ['topic'],
      additionalProperties: false,
    };
    const responds = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const writer = await capsule({
      name: 'writer',
      description: 'Writes summaries.',
      accepts,
      responds,
      inference: { rehearsal: { replies: [{ turns: [{ data: { summary: 'short' } }] }] } },
    });
    const other = await capsule({ name: 'other.capsule', ...reply('other') });
    const g = await gatewayFor([writer, other]);
    const { token } = g.exposures.enable('writer');
    const tools = (await (await connect(g, token)).listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(['writer']);
    expect(tools[0].inputSchema).toEqual(accepts);
    expect(tools[0].outputSchema).toEqual(responds);
    expect(tools[0].description).toContain('Writes summaries.');

    // Exposed with its own token: listed there (name made valid), never beside writer.
    const second = g.exposures.enable('other.capsule').token;
    expect((await (await connect(g, second)).listTools()).tools.map((t) => [t.name, t.inputSchema.required])).toEqual([
      ['other_capsule', ['text']],
    ]);
  });

  it('runs a task per call and answers its result (structuredContent when responds is declared)', async () => {
    const responds = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const writer = await capsule({
      name: 'writer',
      responds,
      inference: { rehearsal: { replies: [{ turns: [{ data: { summary: 'three words here' } }] }] } },
    });
    const echo = await capsule({ name: 'echo', ...reply('You asked: {{task}}') });
    const g = await gatewayFor([writer, echo]);
    const w = await (
      await connect(g, g.exposures.enable('writer').token)
    ).callTool({ name: 'writer', arguments: { text: 'summarise' } });
    expect(w.isError).toBeFalsy();
    expect(w.structuredContent).toEqual({ summary: 'three words here' });
    const e = await (
      await connect(g, g.exposures.enable('echo').token)
    ).callTool({ name: 'echo', arguments: { text: 'hello there' } });
    expect(textOf(e)).toBe('You asked: hello there');
    expect(echo.session.listTasks().at(-1)?.status.state).toBe('TASK_STATE_COMPLETED');
    // The call is in the access log under the capsule, by token id only.
    expect(
      g.access.recent().some((a) => a.capsule === 'echo' && a.method === 'MCP tools/call' && a.status === 200),
    ).toBe(true);
  });

  it('reaches a capsule whose door runs in another process through that door, cancel included', async () => {
    const slow = await capsule({
      name: 'slow',
      inference: {
        rehearsal: { replies: [{ when: 'wait', turns: [{ hang: true }] }, { turns: [{ text: 'over the door' }] }] },
      },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'capsule-mcp-'));
    // Only the door's URL and card, as a headless gateway knows a `capsule run` session.
    const g = await createGateway({
      dataDir,
      port: 0,
      resolveCapsule: (n) => (n === 'slow' ? { url: slow.session.url, card: agentCardOf(slow.session) } : undefined),
    });
    owned.push({ close: async () => (await g.close(), rmSync(dataDir, { recursive: true, force: true })) });
    const client = await connect(g, g.exposures.enable('slow').token);
    expect(textOf(await client.callTool({ name: 'slow', arguments: { text: 'hello' } }))).toBe('over the door');
    const abort = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { text: 'wait' } }, CallToolResultSchema, {
      signal: abort.signal,
    });
    await waitFor(slow.session, () => slow.session.listTasks().some((t) => t.status.state === 'TASK_STATE_WORKING'));
    abort.abort();
    await expect(call).rejects.toThrow();
    await waitFor(slow.session, () => slow.session.listTasks().at(-1)?.status.state === 'TASK_STATE_CANCELED');
  });

  it('refuses a wrong or missing token before any session', async () => {
    const echo = await capsule({ name: 'echo', ...reply('hi') });
    const g = await gatewayFor([echo]);
    g.exposures.enable('echo');
    await expect(connect(g, 'capsule_not-the-token-at-all-xxxxxxxx')).rejects.toThrow(/bearer token is not valid/);
    const res = await fetch(g.urlsOf('echo').mcp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(g.mcpSessions()).toBe(0);
    expect(g.access.recent().at(-1)).toMatchObject({ method: 'POST /mcp', status: 401 });
  });

  it('answers arguments that miss the accepts contract with a tool error naming the field; no task starts', async () => {
    const accepts = { type: 'object', properties: { topic: { type: 'string', minLength: 2 } }, required: ['topic'] };
    const writer = await capsule({ name: 'writer', accepts, ...reply('done') });
    const g = await gatewayFor([writer]);
    const client = await connect(g, g.exposures.enable('writer').token);
    const bad = await client.callTool({ name: 'writer', arguments: { topic: 'x' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Invalid arguments for writer: topic: must NOT have fewer than 2 characters/);
    const missing = await client.callTool({ name: 'writer', arguments: {} });
    expect(textOf(missing)).toMatch(/topic/);
    const big = await client.callTool({ name: 'writer', arguments: { topic: 'y'.repeat(300 * 1024) } });
    expect(textOf(big)).toMatch(/larger than 262144 bytes/);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 300; i++) deep = [deep];
    const nested = await client.callTool({ name: 'writer', arguments: { topic: deep } });
    expect(textOf(nested)).toMatch(/nested deeper than 59 levels/);
    expect(writer.session.listTasks()).toHaveLength(0);
    const ok = await client.callTool({ name: 'writer', arguments: { topic: 'tides' } });
    expect(textOf(ok)).toBe('done');
    const unknown = await client.callTool({ name: 'nobody', arguments: {} }).catch((e: Error) => e);
    expect(unknown).toBeInstanceOf(Error);
    expect((unknown as Error).message).toMatch(/^MCP error -32602: Unknown tool "nobody"/);
    expect((unknown as Error).message.match(/MCP error/g)).toHaveLength(1);
  });

  it('a canceled call cancels the task and its delegation (orchestrator -> worker)', async () => {
    const worker = await capsule({
      name: 'worker',
      exports: { peer_tasks: { accept: true } },
      inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } },
    });
    const port = new URL(worker.session.url).port;
    const boss = await capsule({
      name: 'boss',
      role: 'orchestrator',
      capabilities: { network: { allow: [`127.0.0.1:${port}`] } },
      inference: {
        rehearsal: {
          replies: [
            {
              turns: [
                {
                  tool_calls: [{ name: 'delegate_task', arguments: { to: worker.session.url, text: 'work forever' } }],
                },
                { text: '{{tool_results}}' },
              ],
            },
          ],
        },
      },
    });
    const g = await gatewayFor([boss, worker]);
    const client = await connect(g, g.exposures.enable('boss').token);
    const abort = new AbortController();
    const progress: string[] = [];
    const call = client.callTool({ name: 'boss', arguments: { text: 'go' } }, CallToolResultSchema, {
      signal: abort.signal,
      onprogress: (p) => progress.push(p.message ?? ''),
    });
    await waitFor(worker.session, () =>
      worker.session.listTasks().some((t) => t.status.state === 'TASK_STATE_WORKING'),
    );
    abort.abort();
    await expect(call).rejects.toThrow();
    const bossTask = boss.session.listTasks()[0];
    await waitFor(boss.session, () => boss.session.taskState(bossTask.id) === 'TASK_STATE_CANCELED');
    await waitFor(worker.session, () => worker.session.listTasks()[0]?.status.state === 'TASK_STATE_CANCELED');
    // The client said so with notifications/cancelled (its stream for the call stays open until answered or closed).
    expect(g.access.recent().some((a) => a.method === 'MCP notifications/cancelled')).toBe(true);
    expect(progress.length).toBeGreaterThan(0); // the task's progress reached the client while it worked
    expect(progress[0]).toMatch(/^working/);
  });

  it('cancels the task when the HTTP request carrying the call goes away', async () => {
    const slow = await capsule({ name: 'slow', inference: { rehearsal: { replies: [{ turns: [{ hang: true }] }] } } });
    const g = await gatewayFor([slow]);
    const token = g.exposures.enable('slow').token;
    const client = await connect(g, token);
    const sid = (client as any)._transport.sessionId as string;
    const abort = new AbortController();
    const res = fetch(g.urlsOf('slow').mcp, {
      method: 'POST',
      signal: abort.signal,
      headers: {
        authorization: `Bearer ${token}`,
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-06-18',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 77,
        method: 'tools/call',
        params: { name: 'slow', arguments: { text: 'wait' } },
      }),
    });
    await waitFor(slow.session, () => slow.session.listTasks().some((t) => t.status.state === 'TASK_STATE_WORKING'));
    abort.abort();
    await res.catch(() => undefined);
    await waitFor(slow.session, () => slow.session.listTasks()[0].status.state === 'TASK_STATE_CANCELED');
  });

  it('is bounded: a session past the cap gets 503 with Retry-After, an idle one expires, a revoked token ends its sessions', async () => {
    const echo = await capsule({ name: 'echo', ...reply('hi') });
    const g = await gatewayFor([echo], { maxSessions: 1, idleMs: 300 });
    const token = g.exposures.enable('echo').token;
    const first = await connect(g, token);
    await expect(connect(g, token)).rejects.toThrow(/503|gateway_busy/);
    expect(g.access.recent().some((a) => a.status === 503 && a.outcome === 'busy')).toBe(true);
    await new Promise((r) => setTimeout(r, 700));
    expect(g.mcpSessions()).toBe(0);
    await expect(first.listTools()).rejects.toThrow(/404|Session not found/);

    const again = await connect(g, token);
    expect(g.mcpSessions()).toBe(1);
    g.exposures.rotate('echo');
    expect(g.mcpSessions()).toBe(0);
    await expect(again.listTools()).rejects.toThrow(/bearer token is not valid/);

    // One token holds at most its share of the sessions; another token still gets one.
    const other = await capsule({ name: 'other', ...reply('hi') });
    const g2 = await gatewayFor([echo, other], { maxSessions: 3, maxSessionsPerToken: 2 });
    const t1 = g2.exposures.enable('echo').token;
    await connect(g2, t1);
    await connect(g2, t1);
    await expect(connect(g2, t1)).rejects.toThrow(/gateway_busy/);
    await connect(g2, g2.exposures.enable('other').token);
    expect(g2.mcpSessions()).toBe(3);
  });
});
