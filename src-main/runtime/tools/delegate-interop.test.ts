import { afterEach, describe, expect, it } from 'vitest';
import { PEER_HEADER } from '../../../src-shared/a2a';
import { fakeTask } from './task.fixture';
import { createDelegateTool } from './index';
import { startSdkAgent, type SdkAgent } from './sdk-agent.fixture';
import { startSession } from '../../launch';
import { rehearsal, rpc, scene, traceOf, userMessage, waitFor, type Scene } from './formation.fixture';

// Interop: a remote agent served by @a2a-js/sdk 1.3.0 is a valid delegation target, for an answer
// and for a cancel that reaches it.

const TASK_HEX = '019ed33d1f6873b09d25f0dc5ce387c4';
const ORCH = { sessionId: 'ses_orch', taskId: `tsk_${TASK_HEX}`, contextId: 'ctx_orch' };

let agent: SdkAgent | undefined;
let s: Scene | undefined;
afterEach(async () => {
  await s?.dispose();
  await agent?.close();
  agent = undefined;
  s = undefined;
});

describe('delegate_task to an @a2a-js/sdk agent', () => {
  it('sends, follows the task and returns its response artifact', async () => {
    agent = await startSdkAgent();
    const tool = createDelegateTool({
      capsule: { name: 'orch', version: '1.0.0' },
      allow: [new URL(agent.url).host],
      workdir: () => '/nowhere',
    });
    const t = fakeTask(ORCH);
    const out = await tool.run({ to: agent.url, text: 'summarise', data: { n: 1 } }, t.ctx);
    expect(out).toEqual({ ok: true, content: 'sdk echo: summarise {"n":1}' });
    const send = agent.requests.find((r) => r.method === 'SendMessage')!;
    expect(send.headers['a2a-version']).toBe('1.0');
    expect(send.headers[PEER_HEADER]).toBe('orch; session=ses_orch');
    expect(send.headers.traceparent).toMatch(new RegExp(`^00-${TASK_HEX}-[0-9a-f]{16}-01$`));
    expect(agent.requests.some((r) => r.method === 'GetTask')).toBe(true);
    const sendEvent = t.events.find((e) => e.event_type === 'a2a_send');
    expect(sendEvent).toMatchObject({
      peer_url: agent.url,
      message_id: expect.stringMatching(/^msg_/),
      task_id: expect.any(String),
      context_id: expect.any(String),
    });
    expect(t.events.find((e) => e.event_type === 'delegation_end')).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    expect(t.works.size).toBe(0);
  });

  it('on cancel sends CancelTask to the sdk task and names the delegation as residue', async () => {
    agent = await startSdkAgent();
    const tool = createDelegateTool({
      capsule: { name: 'orch', version: '1.0.0' },
      allow: [`localhost:${new URL(agent.url).port}`],
      workdir: () => '/nowhere',
    });
    const t = fakeTask(ORCH);
    const running = tool.run({ to: agent.url, text: 'hang until canceled' }, t.ctx);
    await new Promise<void>((r) => {
      const check = () => (t.events.some((e) => e.event_type === 'a2a_send') ? r() : setTimeout(check, 5));
      check();
    });
    const peerTaskId = t.events.find((e) => e.event_type === 'a2a_send')!.task_id as string;
    const [residue] = await t.cancel();
    expect(agent.canceled).toEqual([peerTaskId]);
    expect(residue).toEqual({
      kind: 'delegation',
      delegation_id: expect.stringMatching(/^dlg_[0-9a-f]{6}$/),
      capsule: 'sdk-agent',
      version: '9.9.9',
      child_session_id: '',
      child_workdir: '',
    });
    expect(await running).toEqual({ ok: false, error: 'canceled' });
    expect(t.events.find((e) => e.event_type === 'delegation_end')).toMatchObject({
      state: 'canceled',
      cancel_sent: true,
      peer_task_id: peerTaskId,
    });
  });

  it('is a delegation target of an orchestrator session, for answers and for cancel', async () => {
    agent = await startSdkAgent();
    s = scene();
    const call = (text: string) => ({ tool_calls: [{ name: 'delegate_task', arguments: { to: agent!.url, text } }] });
    const orch = await startSession({
      manifestPath: s.manifest('orchestrator', {
        inference: rehearsal([
          { when: 'hang', turns: [call('hang'), { text: 'never' }] },
          { turns: [call('report'), { text: 'relayed' }] },
        ]),
        capabilities: { network: { allow: [agent.url] } },
      }),
      env: s.env,
      port: 0,
    });
    s.sessions.push(orch);
    const done = await rpc(orch.url, 'SendMessage', { message: userMessage('go') });
    expect(done.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(traceOf(orch).find((l) => l.event_type === 'tool_result')).toMatchObject({
      ok: true,
      result: 'sdk echo: report',
    });

    const sent = await rpc(orch.url, 'SendMessage', {
      message: userMessage('hang'),
      configuration: { returnImmediately: true },
    });
    const send = await waitFor('a2a_send', () => traceOf(orch).filter((l) => l.event_type === 'a2a_send')[1]);
    const canceled = await rpc(orch.url, 'CancelTask', { id: sent.task.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(agent.canceled).toEqual([send.peer_task_id]);
    expect(canceled.artifacts[0].parts[0].data).toMatchObject({
      kind: 'delegation',
      capsule: 'sdk-agent',
      version: '9.9.9',
    });
  });
});
