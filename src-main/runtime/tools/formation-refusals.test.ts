import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../../launch';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { staticFormation } from './index';
import {
  countingForwarder,
  readTraceFile,
  rehearsal,
  rpc,
  scene,
  traceOf,
  userMessage,
  type Scene,
} from './formation.fixture';

// Refusals, as the orchestrator's model sees them (tool errors) and as the places involved see
// them (no connection at all where the policy says no). Four delegations in one turn, one per case.

let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe('formation refusals', () => {
  it('missing allow entry, peer not accepted, redirect out of the allow list, peer down', async () => {
    s = scene();
    const worker = await startSession({
      manifestPath: s.manifest('worker', {
        inference: rehearsal([{ turns: [{ text: 'worker answered' }] }]),
        exports: { peer_tasks: { accept: true } },
      }),
      env: s.env,
      port: 0,
    });
    s.sessions.push(worker);
    const closedPath = s.manifest('closed', { inference: rehearsal([{ turns: [{ text: 'closed answered' }] }]) });
    const closed = await startSession({ manifestPath: closedPath, env: s.env, port: 0 });
    s.sessions.push(closed);
    // Everything that reaches the worker goes through this forwarder, which counts connections.
    const front = await countingForwarder(worker.port);
    s.disposers.push(() => front.close());
    let redirectorConnections = 0;
    const redirector = createServer((_req, res) => {
      res.writeHead(307, { location: front.url });
      res.end();
    });
    redirector.on('connection', () => redirectorConnections++);
    const redirectorPort = await listen(redirector);
    s.disposers.push(
      () =>
        new Promise<void>((r) => {
          redirector.closeAllConnections();
          redirector.close(() => r());
        }),
    );
    const gone = createServer();
    const downPort = await listen(gone);
    await new Promise<void>((r) => gone.close(() => r()));

    const calls = [
      front.url,
      closed.url,
      `http://localhost:${redirectorPort}/`,
      `http://127.0.0.1:${downPort}`,
      'closed-child',
    ].map((to) => ({
      name: 'delegate_task',
      arguments: { to, text: 'please' },
    }));
    const orch = await startSession({
      manifestPath: s.manifest('orchestrator', {
        inference: rehearsal([{ turns: [{ tool_calls: calls }, { text: 'reported' }] }]),
        capabilities: {
          network: { allow: [`localhost:${closed.port}`, `127.0.0.1:${redirectorPort}`, `localhost:${downPort}`] },
        },
      }),
      env: s.env,
      port: 0,
      // The same capsule started as a sub-capsule: its door refuses peers too.
      formation: staticFormation({ 'closed-child': { kind: 'manifest', manifestPath: closedPath } }),
    });
    s.sessions.push(orch);

    const sent = await rpc(orch.url, 'SendMessage', { message: userMessage('go') });
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const lines = traceOf(orch);
    const results = lines.filter((l) => l.event_type === 'tool_result');
    expect(results.map((r) => r.ok)).toEqual([false, false, false, false, false]);
    const [missing, notAccepted, redirected, down, childRefused] = results.map((r) => r.result as string);

    expect(missing).toMatch(new RegExp(`^network_refused: ${front.url}`));
    expect(notAccepted).toMatch(/^peer_not_accepted: /);
    expect(redirected).toMatch(new RegExp(`^network_refused: ${front.url}`));
    expect(down).toMatch(/^connection_refused: .*connection refused/);
    expect(childRefused).toMatch(/^peer_not_accepted: /);
    // The refused sub-capsule was ended, its records kept under the orchestrator's folder.
    const [childDir] = readdirSync(join(orch.workdir, 'children'));
    expect(childDir).toMatch(/^closed-[0-9a-f]{16}$/);
    const child = readTraceFile(join(orch.workdir, 'children', childDir, 'trace.jsonl'));
    expect(child.map((l) => l.event_type)).toEqual(['session_start', 'session_end']);

    // Zero connections reached the worker, directly or through the redirect; the redirector got one.
    expect(front.connections()).toBe(0);
    expect(redirectorConnections).toBeGreaterThan(0);
    expect(worker.listTasks()).toEqual([]);
    const refused = lines.filter((l) => l.event_type === 'network_refused');
    expect(refused.map((l) => l.url)).toEqual([front.url, `${front.url}/`]);
    expect(refused.every((l) => typeof l.reason === 'string' && l.reason.length > 0)).toBe(true);

    // The capsule that takes no peer tasks never saw one, but still serves a plain client.
    expect(traceOf(closed).filter((l) => l.event_type === 'a2a_task_received')).toEqual([]);
    const plain = await rpc(closed.url, 'SendMessage', { message: userMessage('from curl') });
    expect(plain.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
