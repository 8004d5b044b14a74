import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startSession } from '../../launch';
import { staticFormation } from './index';
import { readTraceFile, rehearsal, rpc, scene, traceOf, userMessage, type Scene } from './formation.fixture';

// A formation two hops deep (orchestrator -> middle -> leaf) stays in one W3C trace: a task that
// arrived with a traceparent delegates with that trace id, not one of its own.

let s: Scene | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

it('a delegation further down a formation keeps the trace id the task arrived with', async () => {
  s = scene();
  const leaf = s.manifest('leaf', {
    inference: rehearsal([{ turns: [{ text: 'leaf answer' }] }]),
    exports: { peer_tasks: { accept: true } },
  });
  const middlePath = s.manifest('middle', {
    inference: rehearsal([
      {
        turns: [
          { tool_calls: [{ name: 'delegate_task', arguments: { to: 'leaf', text: 'go deeper' } }] },
          { text: 'middle answer' },
        ],
      },
    ]),
    exports: { peer_tasks: { accept: true } },
  });
  const middle = await startSession({
    manifestPath: middlePath,
    env: s.env,
    port: 0,
    formation: staticFormation({ leaf: { kind: 'manifest', manifestPath: leaf } }),
  });
  s.sessions.push(middle);
  const orch = await startSession({
    manifestPath: s.manifest('orchestrator', {
      inference: rehearsal([
        {
          turns: [
            { tool_calls: [{ name: 'delegate_task', arguments: { to: 'middle', text: 'go' } }] },
            { text: 'done' },
          ],
        },
      ]),
      capabilities: { network: { allow: [`localhost:${middle.port}`] } },
    }),
    env: s.env,
    port: 0,
    formation: staticFormation({
      middle: { kind: 'door', url: middle.url, capsule: 'middle', sessionId: middle.id, workdir: middle.workdir },
    }),
  });
  s.sessions.push(orch);
  const sent = await rpc(orch.url, 'SendMessage', {
    message: userMessage('start'),
    configuration: { returnImmediately: false },
  });
  expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
  const traceId = sent.task.id.slice(4);
  const middleReceived = traceOf(middle).find((l) => l.event_type === 'a2a_task_received')!;
  const middleSent = traceOf(middle).find((l) => l.event_type === 'delegation_start')!;
  const [child] = readdirSync(join(middle.workdir, 'children'));
  const leafReceived = readTraceFile(join(middle.workdir, 'children', child, 'trace.jsonl')).find(
    (l) => l.event_type === 'a2a_task_received',
  )!;
  expect(middleReceived.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  expect(middleSent.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  expect(leafReceived.traceparent).toBe(middleSent.traceparent);
  // Each hop names its own span: the leaf's parent is the middle's delegation, not the orchestrator's.
  expect(middleSent.traceparent).not.toBe(middleReceived.traceparent);
});

it("a delegation's tool_result names the peer task it made and the session holding it, failed or not", async () => {
  s = scene();
  const workerPath = s.manifest('worker', {
    inference: rehearsal([
      { when: 'one', turns: [{ text: 'worker answer' }] },
      { when: 'two', turns: [{ error: 'worker gave up' }] },
    ]),
    exports: { peer_tasks: { accept: true } },
  });
  const worker = await startSession({ manifestPath: workerPath, env: s.env, port: 0 });
  s.sessions.push(worker);
  const orch = await startSession({
    manifestPath: s.manifest('orchestrator', {
      inference: rehearsal([
        {
          when: 'first',
          turns: [
            { tool_calls: [{ name: 'delegate_task', arguments: { to: 'worker', text: 'one' } }] },
            { text: 'done' },
          ],
        },
        {
          when: 'second',
          turns: [
            { tool_calls: [{ name: 'delegate_task', arguments: { to: 'worker', text: 'two' } }] },
            { text: 'done again' },
          ],
        },
      ]),
      capabilities: { network: { allow: [`localhost:${worker.port}`] } },
    }),
    env: s.env,
    port: 0,
    formation: staticFormation({
      worker: { kind: 'door', url: worker.url, capsule: 'worker', sessionId: worker.id, workdir: worker.workdir },
    }),
  });
  s.sessions.push(orch);
  for (const text of ['first', 'second'])
    await rpc(orch.url, 'SendMessage', { message: userMessage(text), configuration: { returnImmediately: false } });
  const workerTasks = traceOf(worker)
    .filter((l) => l.event_type === 'a2a_task_received')
    .map((l) => l.task_id);
  expect(workerTasks).toHaveLength(2);
  const calls = traceOf(orch).filter((l) => l.event_type === 'tool_call' && l.name === 'delegate_task');
  const starts = traceOf(orch).filter((l) => l.event_type === 'delegation_start');
  const results = traceOf(orch).filter((l) => l.event_type === 'tool_result' && l.name === 'delegate_task');
  expect(results.map((r) => r.ok)).toEqual([true, false]);
  results.forEach((r, i) => {
    expect(r).toMatchObject({
      call_id: calls[i].call_id,
      peer_task_id: workerTasks[i],
      child_session_id: worker.id,
      capsule: 'worker',
      delegation_id: starts[i].delegation_id,
    });
    // The delegation's start names the call it belongs to, so a delegation in flight is found from its call.
    expect(starts[i].call_id).toBe(calls[i].call_id);
  });
});
