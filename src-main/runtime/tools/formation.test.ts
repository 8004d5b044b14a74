import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../../launch';
import { staticFormation } from './index';
import { readTraceFile, rehearsal, rpc, scene, traceOf, userMessage, waitFor, type Scene } from './formation.fixture';

// A three-capsule formation on the rehearsal driver: an orchestrator delegates, in one turn and in
// parallel, to worker-a (a door already running) and worker-b (a sub-capsule it starts from a
// manifest). A cancel of the orchestrator task must reach both, before its own task_end.

let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

const workerReplies = (name: string) =>
  rehearsal([{ when: 'hang', turns: [{ hang: true }] }, { turns: [{ delay_ms: 20, text: `${name} did: the work` }] }]);

async function formation(extra: Record<string, unknown> = {}) {
  s = scene();
  const a = await startSession({
    manifestPath: s.manifest('worker-a', {
      inference: workerReplies('worker-a'),
      exports: { peer_tasks: { accept: true } },
    }),
    env: s.env,
    port: 0,
  });
  s.sessions.push(a);
  const bPath = s.manifest('worker-b', {
    inference: workerReplies('worker-b'),
    exports: { peer_tasks: { accept: true } },
  });
  const delegations = (text: string) => [
    { name: 'delegate_task', arguments: { to: 'worker-a', text } },
    { name: 'delegate_task', arguments: { to: 'worker-b', text } },
  ];
  const orchPath = s.manifest('orchestrator', {
    inference: rehearsal([
      { when: 'hang', turns: [{ tool_calls: delegations('hang until canceled') }, { text: 'never reached' }] },
      {
        when: 'detach',
        turns: [
          { tool_calls: [{ name: 'shell', arguments: { command: 'sleep 30', detach: true } }] },
          { text: 'detached' },
        ],
      },
      { turns: [{ tool_calls: delegations('do the work') }, { text: 'both answered' }] },
    ]),
    capabilities: { network: { allow: [`localhost:${a.port}`] }, shell: { allow: ['sleep'] } },
    ...extra,
  });
  const orch = await startSession({
    manifestPath: orchPath,
    env: s.env,
    port: 0,
    formation: staticFormation({
      'worker-a': {
        kind: 'door',
        url: a.url,
        capsule: 'worker-a',
        version: '0.1.0',
        sessionId: a.id,
        workdir: a.workdir,
      },
      'worker-b': { kind: 'manifest', manifestPath: bPath },
    }),
  });
  s.sessions.push(orch);
  return { a, orch };
}

const byType = (lines: Record<string, any>[], type: string) => lines.filter((l) => l.event_type === type);
const indexOf = (lines: Record<string, any>[], type: string) => lines.findIndex((l) => l.event_type === type);

describe('a formation that delegates', () => {
  it('runs two delegations in parallel and hands each answer back to the model', async () => {
    const { a, orch } = await formation();
    const sent = await rpc(orch.url, 'SendMessage', {
      message: userMessage('do it'),
      configuration: { returnImmediately: false },
    });
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const lines = traceOf(orch);
    const results = byType(lines, 'tool_result');
    expect(results.map((r) => [r.ok, r.result])).toEqual([
      [true, 'worker-a did: the work'],
      [true, 'worker-b did: the work'],
    ]);
    // The sub-capsule lived for its delegation only; its records stay under the parent's folder.
    const childStart = byType(lines, 'delegation_start').find((e) => e.capsule === 'worker-b')!;
    expect(childStart.child_session_id).toMatch(/^ses_[0-9a-f]{32}$/);
    const children = byType(lines, 'a2a_send');
    expect(children).toHaveLength(2);
    expect(a.listTasks().map((t) => t.status.state)).toEqual(['TASK_STATE_COMPLETED']);
  });

  it('cancel reaches every hop before the orchestrator task_end, with residue and traces on all sides', async () => {
    const { a, orch } = await formation();
    const sent = await rpc(orch.url, 'SendMessage', {
      message: userMessage('hang'),
      configuration: { returnImmediately: true },
    });
    const orchTaskId: string = sent.task.id;
    // Both delegations are out at once (each worker hangs, so a serial loop would never send the second).
    await waitFor('two a2a_send', () => byType(traceOf(orch), 'a2a_send').length === 2);
    await waitFor('worker-a working', () => a.listTasks()[0]?.status.state === 'TASK_STATE_WORKING');

    const canceled = await rpc(orch.url, 'CancelTask', { id: orchTaskId });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const residue = canceled.artifacts.find((x: any) => x.name === 'residue');
    const items = residue.parts.map((p: any) => p.data);
    const itemA = items.find((i: any) => i.capsule === 'worker-a');
    const itemB = items.find((i: any) => i.capsule === 'worker-b');
    expect(items).toHaveLength(2);
    expect(itemA).toEqual({
      kind: 'delegation',
      delegation_id: expect.stringMatching(/^dlg_[0-9a-f]{6}$/),
      capsule: 'worker-a',
      version: '0.1.0',
      child_session_id: a.id,
      child_workdir: a.workdir,
    });
    expect(itemB).toEqual({
      kind: 'delegation',
      delegation_id: expect.stringMatching(/^dlg_[0-9a-f]{6}$/),
      capsule: 'worker-b',
      version: '0.1.0',
      child_session_id: expect.stringMatching(/^ses_[0-9a-f]{32}$/),
      child_workdir: expect.stringMatching(new RegExp(`^${orch.workdir}/children/worker-b-[0-9a-f]{16}$`)),
    });

    // Worker-a: its task is CANCELED (the door answers so, and its trace says so).
    const workerTask = a.listTasks()[0];
    expect(workerTask.status.state).toBe('TASK_STATE_CANCELED');
    // Orchestrator trace.
    const o = traceOf(orch);
    const tp = new RegExp(`^00-${orchTaskId.slice(4)}-[0-9a-f]{16}-01$`);
    expect(byType(o, 'a2a_send').map((e) => e.traceparent)).toEqual([
      expect.stringMatching(tp),
      expect.stringMatching(tp),
    ]);
    // Each a2a_send names the peer task it created; worker-a's is the task the door canceled.
    expect(byType(o, 'a2a_send').map((e) => e.peer_task_id)).toContain(a.listTasks()[0].id);
    expect(
      byType(o, 'a2a_send').every((e) => e.task_id === orchTaskId && /^msg_/.test(e.message_id) && e.context_id),
    ).toBe(true);
    const peerUrls = byType(o, 'a2a_send').map((e) => e.peer_url);
    expect(peerUrls).toContain(a.url);
    expect(peerUrls.find((u) => u !== a.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(byType(o, 'delegation_end').map((e) => [e.state, e.cancel_sent])).toEqual([
      ['canceled', true],
      ['canceled', true],
    ]);
    const oc = byType(o, 'task_canceled')[0];
    expect(oc.in_flight).toHaveLength(2);
    expect(indexOf(o, 'task_canceled')).toBeLessThan(indexOf(o, 'task_end'));
    expect(Math.max(...o.filter((e) => e.event_type === 'delegation_end').map((e) => o.indexOf(e)))).toBeLessThan(
      indexOf(o, 'task_canceled'),
    );
    const orchEnd = byType(o, 'task_end')[0];
    expect(orchEnd).toMatchObject({ exit_status: 'canceled', state: 'TASK_STATE_CANCELED', task_id: orchTaskId });

    // Worker-a trace: received with the peer header and traceparent, canceled, ended before the orchestrator.
    const w = traceOf(a);
    const receivedA = byType(w, 'a2a_task_received')[0];
    expect(receivedA).toMatchObject({
      peer: `orchestrator; session=${orch.id}`,
      traceparent: expect.stringMatching(tp),
    });
    expect(byType(o, 'a2a_send').map((e) => e.traceparent)).toContain(receivedA.traceparent);
    expect(indexOf(w, 'task_canceled')).toBeLessThan(indexOf(w, 'task_end'));
    const endA = byType(w, 'task_end')[0];
    expect(endA).toMatchObject({ exit_status: 'canceled', state: 'TASK_STATE_CANCELED' });
    expect(endA.ts <= orchEnd.ts).toBe(true);

    // Worker-b: a child session whose whole life (received, canceled, ended) fits before the orchestrator's task_end.
    const childTrace = join(itemB.child_workdir, 'trace.jsonl');
    expect(existsSync(childTrace)).toBe(true);
    const b = readTraceFile(childTrace);
    expect(byType(b, 'session_start')[0]).toMatchObject({ parent_session_id: orch.id, capsule: 'worker-b' });
    expect(byType(b, 'a2a_task_received')[0]).toMatchObject({
      peer: `orchestrator; session=${orch.id}`,
      traceparent: expect.stringMatching(tp),
    });
    expect(byType(b, 'task_end')[0]).toMatchObject({ exit_status: 'canceled', state: 'TASK_STATE_CANCELED' });
    const sessionEndB = byType(b, 'session_end')[0];
    expect(sessionEndB).toBeDefined();
    expect(sessionEndB.ts <= orchEnd.ts).toBe(true);
    expect(indexOf(b, 'task_end')).toBeLessThan(indexOf(b, 'session_end'));
  });

  it('StopSession reports every delegation and detached command in one answer', async () => {
    const { orch } = await formation();
    // A detached command from a task that already ended is still the session's residue.
    const detached = await rpc(orch.url, 'SendMessage', {
      message: userMessage('detach'),
      configuration: { returnImmediately: false },
    });
    expect(detached.task.status.state).toBe('TASK_STATE_COMPLETED');
    const sent = await rpc(orch.url, 'SendMessage', {
      message: userMessage('hang'),
      configuration: { returnImmediately: true },
    });
    await waitFor('two a2a_send', () => byType(traceOf(orch), 'a2a_send').length === 2);
    const stop = await rpc(orch.url, 'murmur.StopSession', {});
    expect(stop.session_id).toBe(orch.id);
    expect(stop.canceled).toEqual([sent.task.id]);
    expect(stop.residue.map((r: any) => r.kind).sort()).toEqual(['delegation', 'delegation', 'detached_shell']);
    expect(stop.residue.find((r: any) => r.kind === 'detached_shell')).toMatchObject({
      binary: 'sleep',
      command: 'sleep 30',
      work_id: expect.stringMatching(/^wrk_[0-9a-f]{6}$/),
    });
    const again = await rpc(orch.url, 'murmur.StopSession', {});
    expect(again.canceled).toEqual([]);
    expect(again.residue.map((r: any) => r.kind)).toEqual(['detached_shell']);
  });

  it('without a formation, finds a capsule running on this machine by name (the allow list still decides)', async () => {
    s = scene();
    const w = await startSession({
      manifestPath: s.manifest('solo-worker', {
        inference: workerReplies('solo-worker'),
        exports: { peer_tasks: { accept: true } },
      }),
      env: s.env,
      port: 0,
    });
    s.sessions.push(w);
    const call = {
      tool_calls: [
        { name: 'delegate_task', arguments: { to: 'solo-worker', text: 'x' } },
        { name: 'delegate_task', arguments: { to: `localhost:${w.port}`, text: 'y' } },
      ],
    };
    const start = (allow: string[]) =>
      startSession({
        manifestPath: s.manifest(`o-${allow.length}`, {
          inference: rehearsal([{ turns: [call, { text: 'done' }] }]),
          capabilities: { network: { allow } },
        }),
        env: s.env,
        port: 0,
      });
    const allowed = await start([`localhost:${w.port}`]);
    const refused = await start([`localhost:${w.port + 1}`, 'example.com']);
    s.sessions.push(allowed, refused);
    await rpc(allowed.url, 'SendMessage', { message: userMessage('go') });
    await rpc(refused.url, 'SendMessage', { message: userMessage('go') });
    expect(byType(traceOf(allowed), 'tool_result').map((r) => r.result)).toEqual([
      'solo-worker did: the work',
      'solo-worker did: the work',
    ]);
    // By name or by URL, the running session behind the door is known (residue names it).
    expect(byType(traceOf(allowed), 'delegation_start').map((e) => [e.capsule, e.child_session_id])).toEqual([
      ['solo-worker', w.id],
      ['solo-worker', w.id],
    ]);
    expect(byType(traceOf(refused), 'tool_result').map((r) => r.result)).toEqual([
      expect.stringMatching(/^network_refused: /),
      expect.stringMatching(/^network_refused: /),
    ]);
    expect(w.listTasks()).toHaveLength(2);
  });
});
