import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../../launch';
import {
  alive,
  countingForwarder,
  readTraceFile,
  rehearsal,
  rpc,
  scene,
  traceOf,
  userMessage,
  waitFor,
  type Scene,
} from '../tools/formation.fixture';
import { everythingHttp, everythingStdio, filesystemStdio } from './servers.fixture';

// Capsules using MCP servers nobody here wrote (@modelcontextprotocol/server-filesystem and
// server-everything), over stdio and Streamable HTTP, scripted by the rehearsal driver.

let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

const byType = (lines: Record<string, any>[], type: string) => lines.filter((l) => l.event_type === type);
async function run(manifest: Record<string, unknown>, text = 'go') {
  const session = await startSession({ manifestPath: s.manifest('user', manifest), env: s.env, port: 0 });
  s.sessions.push(session);
  const sent = await rpc(session.url, 'SendMessage', {
    message: userMessage(text),
    configuration: { returnImmediately: false },
  });
  return { session, task: sent.task, lines: () => traceOf(session) };
}

describe('a capsule using MCP servers', () => {
  it('reads a file it was allowed and is refused one it was not (server-filesystem over stdio)', async () => {
    s = scene();
    const allowed = join(s.dir, 'shared');
    mkdirSync(allowed);
    writeFileSync(join(allowed, 'note.txt'), 'the allowed note');
    writeFileSync(join(s.dir, 'private.txt'), 'the private text');
    const { task, lines } = await run({
      inference: rehearsal([
        {
          turns: [
            {
              tool_calls: [
                { name: 'files__read_text_file', arguments: { path: join(allowed, 'note.txt') } },
                { name: 'files__read_text_file', arguments: { path: join(s.dir, 'private.txt') } },
                { name: 'files__write_file', arguments: { path: join(allowed, 'x.txt'), content: 'x' } },
              ],
            },
            { text: '{{tool_results}}' },
          ],
        },
      ]),
      capabilities: { mcp: { servers: [filesystemStdio(allowed, { tools: ['read_text_file', 'list_directory'] })] } },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const results = byType(lines(), 'tool_result');
    expect(results[0]).toMatchObject({
      ok: true,
      result: 'the allowed note',
      name: 'files__read_text_file',
      mcp_server: 'files',
      mcp_tool: 'read_text_file',
      bytes: 16,
    });
    expect(results[0].duration_ms).toEqual(expect.any(Number));
    expect(results[1]).toMatchObject({ ok: false, mcp_server: 'files' });
    expect(results[1].result).toMatch(
      /^MCP tool files\/read_text_file failed: .*Access denied - path outside allowed directories/,
    );
    expect(results[1].result).not.toContain('the private text');
    // write_file is not in the tools list: the model was never offered it.
    expect(results[2]).toMatchObject({ ok: false, result: 'unknown tool files__write_file' });
    expect(byType(lines(), 'tool_call')[0]).toMatchObject({ mcp_server: 'files', mcp_tool: 'read_text_file' });
  });

  it('passes the server only its own environment, masks its secrets, hands on images, and ends it with the session (server-everything over stdio)', async () => {
    s = scene();
    s.env.CAPSULE_TEST_LEAK = 'runtime-only-value-7';
    s.env.GIVEN_TOKEN = 'given-secret-value-9';
    const { session, task, lines } = await run({
      inference: rehearsal([
        {
          turns: [
            {
              tool_calls: [
                { name: 'everything__echo', arguments: { message: 'hello' } },
                { name: 'everything__get-env', arguments: {} },
                { name: 'everything__get-tiny-image', arguments: {} },
              ],
            },
            { text: '{{tool_results}}' },
          ],
        },
      ]),
      capabilities: { mcp: { servers: [everythingStdio('everything', { env: { GIVEN: '${GIVEN_TOKEN}' } })] } },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const [echo, env, image] = byType(lines(), 'tool_result');
    expect(echo).toMatchObject({ ok: true, result: 'Echo: hello' });
    expect(env.result).not.toContain('runtime-only-value-7');
    expect(env.result).not.toContain('CAPSULE_HOME');
    // The value it was given reached it, and the trace masks it like every ${VAR} value.
    expect(env.result).toContain('"GIVEN": "***"');
    expect(JSON.stringify(lines())).not.toContain('given-secret-value-9');
    expect(image).toMatchObject({ ok: true, parts: 1 });
    expect(image.result).toMatch(/\[image image\/png, \d+ bytes\]/);

    const started = byType(lines(), 'mcp_server_start')[0];
    expect(started).toMatchObject({ mcp_server: 'everything', transport: 'stdio', pid: expect.any(Number) });
    const stop = await rpc(session.url, 'murmur.StopSession', {});
    expect(stop.residue).toContainEqual({
      kind: 'mcp_server',
      server: 'everything',
      pid: started.pid,
      command: expect.stringContaining('server-everything'),
      started_at_ms: expect.any(Number),
    });
    await session.end('test over');
    expect(readTraceFile(session.trace.path).some((l) => l.event_type === 'mcp_server_end')).toBe(true);
    await waitFor('the server process to exit', () => !alive(started.pid), 10_000);
  });

  it('a cancel ends a slow call at once (server-everything over stdio)', async () => {
    s = scene();
    const session = await startSession({
      manifestPath: s.manifest('user', {
        inference: rehearsal([
          {
            turns: [
              {
                tool_calls: [
                  { name: 'everything__trigger-long-running-operation', arguments: { duration: 30, steps: 3 } },
                ],
              },
              { text: 'never' },
            ],
          },
        ]),
        capabilities: { mcp: { servers: [everythingStdio()] } },
      }),
      env: s.env,
      port: 0,
    });
    s.sessions.push(session);
    const sent = await rpc(session.url, 'SendMessage', {
      message: userMessage('slow'),
      configuration: { returnImmediately: true },
    });
    await waitFor('the call', () => traceOf(session).find((l) => l.event_type === 'tool_call'), 15_000);
    const t0 = Date.now();
    const canceled = await rpc(session.url, 'CancelTask', { id: sent.task.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(traceOf(session).find((l) => l.event_type === 'task_canceled')?.in_flight).toEqual([
      expect.stringContaining('MCP call everything/trigger-long-running-operation'),
    ]);
  });

  it('reaches a remote server only when its URL is in the allow list, redirects included (server-everything over Streamable HTTP)', async () => {
    s = scene();
    const remote = await everythingHttp();
    s.disposers.push(() => remote.close());
    const forwarder = await countingForwarder(remote.port);
    s.disposers.push(() => forwarder.close());
    const echo = {
      turns: [
        { tool_calls: [{ name: 'remote__echo', arguments: { message: 'over http' } }] },
        { text: '{{tool_results}}' },
      ],
    };

    const allowedRun = await run({
      inference: rehearsal([echo]),
      capabilities: { network: { allow: [remote.url] }, mcp: { servers: [{ name: 'remote', url: remote.url }] } },
    });
    expect(byType(allowedRun.lines(), 'tool_result')[0]).toMatchObject({
      ok: true,
      result: 'Echo: over http',
      mcp_server: 'remote',
    });
    expect(byType(allowedRun.lines(), 'mcp_server_start')[0]).toMatchObject({
      transport: 'streamable_http',
      url: remote.url,
    });

    // Not in the allow list: refused before any connection (the forwarder counts none).
    const refusedRun = await run({
      inference: rehearsal([echo]),
      capabilities: {
        network: { allow: [remote.url] },
        mcp: { servers: [{ name: 'remote', url: `${forwarder.url}/mcp` }] },
      },
    });
    expect(byType(refusedRun.lines(), 'network_refused')[0]).toMatchObject({
      url: `${forwarder.url}/mcp`,
      mcp_server: 'remote',
    });
    expect(byType(refusedRun.lines(), 'mcp_server_unavailable')[0].reason).toMatch(
      /network_refused: .* is not in capabilities.network.allow/,
    );
    expect(byType(refusedRun.lines(), 'tool_result')[0]).toMatchObject({
      ok: false,
      result: 'unknown tool remote__echo',
    });
    expect(forwarder.connections()).toBe(0);
    expect(refusedRun.task.status.state).toBe('TASK_STATE_COMPLETED');

    // An allowed place that redirects to one that is not: the hop is refused before connecting.
    const redirector = createServer((req, res) => res.writeHead(307, { location: `${forwarder.url}/mcp` }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    s.disposers.push(() => new Promise<void>((r) => redirector.close(() => r())));
    const hop = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/mcp`;
    const redirected = await run({
      inference: rehearsal([echo]),
      capabilities: { network: { allow: [hop] }, mcp: { servers: [{ name: 'remote', url: hop }] } },
    });
    expect(byType(redirected.lines(), 'network_refused')[0]).toMatchObject({
      url: `${forwarder.url}/mcp`,
      mcp_server: 'remote',
    });
    expect(forwarder.connections()).toBe(0);
  });
});
