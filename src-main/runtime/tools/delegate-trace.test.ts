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
  const leaf = s.manifest('leaf', { inference: rehearsal([{ turns: [{ text: 'leaf answer' }] }]), exports: { peer_tasks: { accept: true } } });
  const middlePath = s.manifest('middle', {
    inference: rehearsal([{ turns: [{ tool_calls: [{ name: 'delegate_task', arguments: { to: 'leaf', text: 'go deeper' } }] }, { text: 'middle answer' }] }]),
    exports: { peer_tasks: { accept: true } },
  });
  const middle = await startSession({ manifestPath: middlePath, env: s.env, port: 0, formation: staticFormation({ leaf: { kind: 'manifest', manifestPath: leaf } }) });
  s.sessions.push(middle);
  const orch = await startSession({
    manifestPath: s.manifest('orchestrator', { inference: rehearsal([{ turns: [{ tool_calls: [{ name: 'delegate_task', arguments: { to: 'middle', text: 'go' } }] }, { text: 'done' }] }]), capabilities: { network: { allow: [`localhost:${middle.port}`] } } }),
    env: s.env,
    port: 0,
    formation: staticFormation({ middle: { kind: 'door', url: middle.url, capsule: 'middle', sessionId: middle.id, workdir: middle.workdir } }),
  });
  s.sessions.push(orch);
  const sent = await rpc(orch.url, 'SendMessage', { message: userMessage('start'), configuration: { returnImmediately: false } });
  expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
  const traceId = sent.task.id.slice(4);
  const middleReceived = traceOf(middle).find((l) => l.event_type === 'a2a_task_received')!;
  const middleSent = traceOf(middle).find((l) => l.event_type === 'delegation_start')!;
  const [child] = readdirSync(join(middle.workdir, 'children'));
  const leafReceived = readTraceFile(join(middle.workdir, 'children', child, 'trace.jsonl')).find((l) => l.event_type === 'a2a_task_received')!;
  expect(middleReceived.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  expect(middleSent.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  expect(leafReceived.traceparent).toBe(middleSent.traceparent);
  // Each hop names its own span: the leaf's parent is the middle's delegation, not the orchestrator's.
  expect(middleSent.traceparent).not.toBe(middleReceived.traceparent);
});
