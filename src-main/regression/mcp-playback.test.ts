import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startSession } from '../launch';
import { makeRehearsal, prepareFork, recordedSession, replayOf, saveRehearsal } from '../recording';
import { everythingStdio } from '../runtime/mcp/servers.fixture';
import {
  readTraceFile,
  rehearsal,
  rpc,
  scene,
  traceOf,
  userMessage,
  type Scene,
} from '../runtime/tools/formation.fixture';
import { launchFork } from '../workspace/fork-run';
import { runTest, saveTest } from './index';

// A run that used a real MCP server (server-everything over stdio) is recorded, then played back
// offline by `capsule rehearse`, a fork and `capsule test`: every MCP call is answered from the
// recording (text and image alike) and no server is started, even with the server's program gone
// from this machine. A permission taken back in the manifest makes the test fail.

let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

type Line = Record<string, any>;
const byType = (lines: Line[], type: string) => lines.filter((l) => l.event_type === type);
const results = (lines: Line[]) =>
  byType(lines, 'tool_result').map((l) => ({
    name: l.name,
    ok: l.ok,
    result: l.result,
    mcp_server: l.mcp_server,
    mcp_tool: l.mcp_tool,
    parts: l.parts,
  }));
const serverLines = (lines: Line[]) => lines.filter((l) => String(l.event_type).startsWith('mcp_server'));
const TASK = 'echo and draw';

/** A workspace with one capsule using server-everything, and one task it ran on the real server. */
async function recorded() {
  s = scene();
  const manifestPath = s.manifest('user', {
    inference: rehearsal([
      {
        turns: [
          {
            text: 'Calling the tools.',
            tool_calls: [
              { name: 'everything__echo', arguments: { message: 'hello' } },
              { name: 'everything__get-tiny-image', arguments: {} },
            ],
          },
          { text: 'Done: {{tool_results}}' },
        ],
      },
    ]),
    capabilities: { mcp: { servers: [everythingStdio('everything', { tools: ['echo', 'get-tiny-image'] })] } },
  });
  writeFileSync(
    join(s.dir, 'formation.yaml'),
    stringify({ capsules: [{ id: 'user', manifest: 'user/murmur.yaml' }], remotes: [] }),
  );
  const live = await startSession({ manifestPath, env: s.env, port: 0 });
  s.sessions.push(live);
  const sent = await rpc(live.url, 'SendMessage', {
    message: userMessage(TASK),
    configuration: { returnImmediately: false },
  });
  expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
  const lines = traceOf(live);
  expect(serverLines(lines).map((l) => l.event_type)).toContain('mcp_server_start');
  await live.end('recorded');
  // The server's program is gone from this machine: a replay that started it would fail.
  const m = parse(readFileSync(manifestPath, 'utf8'));
  m.capabilities.mcp.servers[0].command = 'capsule-test-no-such-mcp-server';
  writeFileSync(manifestPath, stringify(m));
  return {
    manifestPath,
    lines,
    answer: sent.task.artifacts[0].parts[0].text as string,
    tracePath: live.trace.path,
    records: join(s.env.CAPSULE_HOME!, 'records'),
  };
}

describe('MCP calls played back offline', () => {
  it('capsule rehearse --from replays every MCP call from the recording, images included, and starts no server', async () => {
    const rec = await recorded();
    const recordedResults = results(rec.lines);
    expect(recordedResults[1]).toMatchObject({ ok: true, mcp_tool: 'get-tiny-image', parts: 1 });
    const r = await makeRehearsal(rec.tracePath, { recordsRoot: rec.records, speed: 0 });
    const written = saveRehearsal(join(s.dir, 'rehearsal'), r);
    const script = parse(readFileSync(written.user, 'utf8')).inference.rehearsal;
    expect(script.mcp_calls).toEqual([
      { server: 'everything', tool: 'echo', arguments: { message: 'hello' }, ok: true, result: 'Echo: hello' },
      {
        server: 'everything',
        tool: 'get-tiny-image',
        arguments: {},
        ok: true,
        result: expect.stringMatching(/\[image image\/png, \d+ bytes\]/),
        parts: [{ bytes: expect.any(String), media_type: 'image/png' }],
      },
    ]);

    const replay = await startSession({ manifestPath: written.user, env: s.env, port: 0 });
    s.sessions.push(replay);
    const sent = await rpc(replay.url, 'SendMessage', {
      message: userMessage(TASK),
      configuration: { returnImmediately: false },
    });
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(sent.task.artifacts[0].parts[0].text).toBe(rec.answer);
    const lines = traceOf(replay);
    expect(results(lines)).toEqual(recordedResults);
    expect(byType(lines, 'tool_result').every((l) => l.played_back === true)).toBe(true);
    expect(byType(lines, 'rehearsal_diverged')).toEqual([]);
    expect(serverLines(lines)).toEqual([]);
    await rpc(replay.url, 'murmur.StopSession', {}).then((stop) => expect(stop.residue).toEqual([]));
  });

  it('a call the recording has no answer for fails, saying so, and is traced as a divergence', async () => {
    const rec = await recorded();
    const r = await makeRehearsal(rec.tracePath, { recordsRoot: rec.records, speed: 0 });
    const path = saveRehearsal(join(s.dir, 'rehearsal'), r).user;
    const m = parse(readFileSync(path, 'utf8'));
    m.inference.rehearsal.replies[0].turns[0].tool_calls[0].arguments = { message: 'something else' };
    writeFileSync(path, stringify(m));
    const replay = await startSession({ manifestPath: path, env: s.env, port: 0 });
    s.sessions.push(replay);
    await rpc(replay.url, 'SendMessage', { message: userMessage(TASK), configuration: { returnImmediately: false } });
    const lines = traceOf(replay);
    expect(byType(lines, 'tool_result')[0]).toMatchObject({
      ok: false,
      mcp_server: 'everything',
      failure: 'mcp_not_recorded',
    });
    expect(byType(lines, 'tool_result')[0].result).toMatch(
      /^mcp_not_recorded: the recording has no answer of MCP server "everything" to echo/,
    );
    expect(byType(lines, 'rehearsal_diverged').map((l) => l.reason)).toContainEqual(
      expect.stringContaining('no answer of MCP server "everything" to echo'),
    );
    expect(serverLines(lines)).toEqual([]);
  });

  it('a fork on the recording replays the MCP calls offline', async () => {
    const rec = await recorded();
    const session = recordedSession(readTraceFile(rec.tracePath));
    const prepared = prepareFork(session, {
      taskId: session.tasks[0].taskId,
      turn: 2,
      driver: 'rehearsal',
      env: s.env,
    });
    const launched = await launchFork(prepared, { startSession, env: s.env });
    s.sessions.push(launched.session);
    const task = await launched.settled;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const lines = traceOf(launched.session);
    expect(results(lines)).toEqual(results(rec.lines));
    expect(serverLines(lines)).toEqual([]);
  });

  it('capsule test plays the MCP calls back, and fails when the manifest no longer allows a tool the run used', async () => {
    const rec = await recorded();
    saveTest(s.dir, 'uses-mcp', await makeRehearsal(rec.tracePath, { recordsRoot: rec.records, speed: 0 }));
    const file = join(s.dir, 'tests', 'uses-mcp.yaml');
    const passing = await runTest(s.dir, file);
    expect(passing.error).toBeUndefined();
    expect(passing.mismatches).toEqual([]);
    expect(passing.passed).toBe(true);

    // The edge narrowed: echo is no longer offered, so the run no longer goes as recorded.
    const m = parse(readFileSync(rec.manifestPath, 'utf8'));
    m.capabilities.mcp.servers[0].tools = ['get-tiny-image'];
    writeFileSync(rec.manifestPath, stringify(m));
    const failing = await runTest(s.dir, file);
    expect(failing.passed).toBe(false);
    expect(JSON.stringify(failing.mismatches)).toContain('unknown tool everything__echo');
  });

  it('the Studio replay of the run shows its MCP calls', async () => {
    const rec = await recorded();
    const run = await replayOf(rec.tracePath, rec.records);
    const calls = run.lines.map((l) => l.event as Line).filter((e) => e.event_type === 'tool_result');
    expect(calls.map((e) => [e.mcp_server, e.mcp_tool, e.ok])).toEqual([
      ['everything', 'echo', true],
      ['everything', 'get-tiny-image', true],
    ]);
  });
});
