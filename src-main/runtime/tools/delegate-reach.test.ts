import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { renderManifestTemplate } from '../../manifest';
import { startSession } from '../../launch';
import type { Session } from '../api';
import { liveFormation, staticFormation, type FormationMember } from './formation';
import { reachableTargets } from './delegate-reach';
import { rehearsal, rpc, scene, traceOf, userMessage, type Scene } from './formation.fixture';

// The palette's orchestrator delegates with `to: "*"`: every worker its allow list reaches, read
// when the call is made, so an edge drawn or removed while it runs counts for the next task. Its
// scripted answer quotes each delegation's outcome, and says so when none succeeded.

let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

const answerOf = (task: { artifacts?: { parts: { text?: string }[] }[] }) =>
  (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('\n');
const statusOf = (task: { status: { message?: { parts: { text?: string }[] } } }) =>
  (task.status.message?.parts ?? []).map((p) => p.text ?? '').join('');

async function formation() {
  s = scene();
  const worker = async (name: string) => {
    const session = await startSession({
      manifestPath: s.manifest(name, {
        inference: rehearsal([{ turns: [{ text: `${name} did: {{task}}` }] }]),
        exports: { peer_tasks: { accept: true } },
      }),
      env: s.env,
      port: 0,
    });
    s.sessions.push(session);
    return session;
  };
  const a = await worker('worker-a');
  const b = await worker('worker-b');
  const member = (w: Session): FormationMember => ({
    names: [w.manifest.name],
    manifestPath: w.manifestPath,
    session: w,
  });
  const orchPath = s.manifest('boss', {});
  writeFileSync(orchPath, renderManifestTemplate('orchestrator', 'boss'));
  const orch = await startSession({
    manifestPath: orchPath,
    env: s.env,
    port: 0,
    formation: liveFormation(() => [member(a), member(b)]),
  });
  s.sessions.push(orch);
  const send = async (text: string) => (await rpc(orch.url, 'SendMessage', { message: userMessage(text) })).task;
  return { a, b, orch, send };
}

describe('delegate_task to "*"', () => {
  it('reaches the workers the allow list names at the time of each task, and reports each outcome', async () => {
    const { a, b, orch, send } = await formation();
    orch.updatePolicy({ allow: [`localhost:${a.port}`], acceptPeerTasks: false });
    // Any words at all: a newcomer's first message need not mention a "task" to be delegated.
    const one = await send('Summarise the quarterly sales report');
    expect(one.status.state).toBe('TASK_STATE_COMPLETED');
    expect(answerOf(one)).toBe('The workers answered:\n- worker-a: worker-a did: Summarise the quarterly sales report');
    expect(b.listTasks()).toHaveLength(0);

    // An edge drawn while the orchestrator runs: the next task reaches both, one call each.
    orch.updatePolicy({ allow: [`localhost:${a.port}`, `127.0.0.1:${b.port}`], acceptPeerTasks: false });
    const two = await send('another task');
    expect(answerOf(two)).toBe(
      'The workers answered:\n- worker-a: worker-a did: another task\n- worker-b: worker-b did: another task',
    );
    const calls = traceOf(orch).filter((l) => l.event_type === 'tool_call' && l.task_id === two.id);
    expect(calls.map((c) => [c.call_id, c.arguments.to])).toEqual([
      ['call_1_1_1', 'worker-a'],
      ['call_1_1_2', 'worker-b'],
    ]);
    expect(traceOf(orch).find((l) => l.event_type === 'policy_changed')).toMatchObject({
      allow: [`localhost:${a.port}`],
      accept_peer_tasks: false,
    });
  });

  it('never claims success when every delegation failed: the task fails, its status saying why', async () => {
    const { a, orch, send } = await formation();
    // No edge at all: nobody to reach.
    const none = await send('a task');
    expect(none.status.state).toBe('TASK_STATE_FAILED');
    expect(answerOf(none)).toBe('');
    expect(statusOf(none)).toBe(
      `task failed: every delegation failed (1 of 1): delegate_task: no worker is reachable from boss: its capabilities.network.allow names no capsule of this formation and no agent URL (in the Studio, draw an edge from boss to a worker)`,
    );

    // An edge whose worker stopped taking peer tasks (its export changed while it runs).
    orch.updatePolicy({ allow: [`localhost:${a.port}`], acceptPeerTasks: false });
    a.updatePolicy({ allow: [], acceptPeerTasks: false });
    const refused = await send('a task');
    expect(refused.status.state).toBe('TASK_STATE_FAILED');
    expect(statusOf(refused)).toMatch(
      /^task failed: every delegation failed \(1 of 1\): worker-a: .*peer_not_accepted/,
    );
    expect(a.listTasks()).toHaveLength(0);
  });
});

describe('reachableTargets', () => {
  it('names the members whose door the allow list admits, and allowed agent URLs outside the formation', () => {
    const f = staticFormation({
      a: { kind: 'door', url: 'http://127.0.0.1:4101' },
      b: { kind: 'door', url: 'http://127.0.0.1:4102' },
      c: { kind: 'manifest', manifestPath: '/c/murmur.yaml' },
    });
    expect(
      reachableTargets(
        ['localhost:4101', 'https://agent.example.com/a2a', 'api.example.com', 'http://127.0.0.1:4102/'],
        f,
      ),
    ).toEqual(['a', 'b', 'https://agent.example.com/a2a']);
    expect(reachableTargets([], f)).toEqual([]);
  });
});
