import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTask } from '../tools/task.fixture';
import type { Tool, ToolOutcome } from '../tool-types';
import { createMcpToolbox, type McpToolbox } from './index';

// A server's output is untrusted input: every way hostile-server.fixture.cjs misbehaves fails
// that one call with a bounded, worded result, and the next call still works.

const dir = mkdtempSync(join(tmpdir(), 'mcp-hostile-'));
const cancelLog = join(dir, 'cancelled.jsonl');
const events: Record<string, unknown>[] = [];
let box: McpToolbox;
let tools: Tool[];

beforeAll(async () => {
  box = createMcpToolbox({
    servers: [
      {
        name: 'bad',
        command: process.execPath,
        args: [join(__dirname, 'hostile-server.fixture.cjs')],
        env: { CANCEL_LOG: cancelLog },
        timeout: '1500ms',
      },
    ],
    folder: dir,
    env: { PATH: process.env.PATH },
    allow: () => [],
    trace: (e) => void events.push(e),
    limits: { maxMessageBytes: 1024 * 1024, connectTimeoutMs: 10_000 },
  });
  box.start();
  tools = await box.tools(new AbortController().signal);
});
afterAll(async () => {
  await box.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: string): Promise<{ out: ToolOutcome; ms: number }> {
  const tool = tools.find((t) => t.spec.name === `bad__${name}`);
  if (!tool) throw new Error(`no tool bad__${name} among ${tools.map((t) => t.spec.name).join(', ')}`);
  const started = Date.now();
  const out = await tool.run({}, fakeTask().ctx);
  return { out, ms: Date.now() - started };
}

const errorOf = (out: ToolOutcome) => ('ok' in out && !out.ok ? out.error : `not a failure: ${JSON.stringify(out)}`);

describe('a hostile MCP server', () => {
  it('offers its tools under the server name', () => {
    expect(tools.map((t) => t.spec.name)).toEqual([
      'bad__huge',
      'bad__garbage',
      'bad__silent',
      'bad__crash',
      'bad__bad_shape',
      'bad__shrink',
      'bad__ok',
    ]);
    expect(tools[0].traceFields).toEqual({ mcp_server: 'bad', mcp_tool: 'huge' });
  });

  it('an oversized answer fails the call and the server is started again for the next one', async () => {
    const { out } = await call('huge');
    expect(errorOf(out)).toMatch(
      /^mcp_closed: MCP server "bad" went away during huge \(.*maximum size of 1048576 bytes.*\); the next call starts it again/,
    );
    tools = await box.tools(new AbortController().signal);
    expect((await call('ok')).out).toEqual({ ok: true, content: 'fine' });
  });

  it('malformed JSON-RPC and no answer: the call fails after its timeout, saying both', async () => {
    const { out, ms } = await call('garbage');
    expect(errorOf(out)).toMatch(
      /^mcp_timeout: MCP server "bad" did not answer garbage within 1500 ms .*the server also sent something unreadable/,
    );
    expect(ms).toBeLessThan(5000);
    expect(events.some((e) => e.event_type === 'mcp_server_problem')).toBe(true);
  });

  it('a cancel sends notifications/cancelled and ends the call at once', async () => {
    const tool = tools.find((t) => t.spec.name === 'bad__silent')!;
    const task = fakeTask();
    const running = tool.run({}, task.ctx);
    await new Promise((r) => setTimeout(r, 200));
    expect([...task.works].map((w) => w.describe())).toEqual(['MCP call bad/silent']);
    const started = Date.now();
    await task.cancel();
    const out = await running;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(errorOf(out)).toMatch(/^canceled: the call to bad\/silent was canceled \(notifications\/cancelled sent\)/);
    await expect
      .poll(() => {
        try {
          return readFileSync(cancelLog, 'utf8');
        } catch {
          return '';
        }
      })
      .toMatch(/"requestId":\d+/);
  });

  it("a crash mid-call fails the call with the server's last words", async () => {
    const { out } = await call('crash');
    expect(errorOf(out)).toMatch(
      /^mcp_closed: MCP server "bad" went away during crash \(its last words on stderr: hostile: crashing on purpose\)/,
    );
    tools = await box.tools(new AbortController().signal);
    expect((await call('ok')).out).toEqual({ ok: true, content: 'fine' });
  });

  it('an answer that is not a tool result fails the call', async () => {
    expect(errorOf((await call('bad_shape')).out)).toMatch(
      /^mcp_bad_result: MCP server "bad" answered bad_shape with something that is not a tool result/,
    );
  });

  it('a tool list that changes: the next turn offers the new list, a stale call fails by name', async () => {
    const stale = tools.find((t) => t.spec.name === 'bad__shrink')!;
    expect((await call('shrink')).out).toEqual({ ok: true, content: 'shrunk' });
    await expect.poll(() => events.some((e) => e.event_type === 'mcp_tools_changed')).toBe(true);
    tools = await box.tools(new AbortController().signal);
    expect(tools.map((t) => t.spec.name)).not.toContain('bad__shrink');
    expect(errorOf(await stale.run({}, fakeTask().ctx))).toBe(
      'mcp_tool_gone: MCP server "bad" no longer offers the tool "shrink" (its tool list changed)',
    );
  });
});
