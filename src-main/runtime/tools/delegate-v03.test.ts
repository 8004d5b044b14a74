import { afterEach, describe, expect, it } from 'vitest';
import { fakeTask } from './task.fixture';
import { createDelegateTool } from './index';
import { startSdk03Agent, type Sdk03Agent } from './sdk03-agent.fixture';

// Interop: an agent served by @a2a-js/sdk 0.3.14, which knows only the 0.3 methods, is a
// delegation target: its card says 0.3, so the delegation speaks 0.3 to it, for an answer and
// for a cancel.

const ORCH = { sessionId: 'ses_orch', taskId: 'tsk_019ed33d1f6873b09d25f0dc5ce387c4', contextId: 'ctx_orch' };

let agent: Sdk03Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

const tool = (a: Sdk03Agent) =>
  createDelegateTool({
    capsule: { name: 'orch', version: '1.0.0' },
    allow: [new URL(a.url).host],
    workdir: () => '/nowhere',
    poll: { firstDelayMs: 10 },
  });

describe('delegate_task to an A2A 0.3 agent', () => {
  it('reads its card, speaks 0.3 and returns its response artifact', async () => {
    agent = await startSdk03Agent();
    const t = fakeTask(ORCH);
    const out = await tool(agent).run({ to: agent.url, text: 'summarise', data: { n: 1 } }, t.ctx);
    expect(out).toEqual({ ok: true, content: 'sdk 0.3 echo: summarise {"n":1}' });
    const methods = agent.requests.map((r) => r.method);
    expect(methods[0]).toBe('SendMessage'); // refused by the 0.3 server: -32601
    expect(methods[1]).toBe('message/send');
    expect(methods.slice(2).every((m) => m === 'tasks/get')).toBe(true);
    expect(agent.requests[1].headers['a2a-version']).toBeUndefined();
    expect(t.events.find((e) => e.event_type === 'a2a_send')).toMatchObject({
      peer_url: agent.url,
      protocol_version: '0.3',
      peer_task_id: expect.any(String),
    });
    expect(t.events.find((e) => e.event_type === 'delegation_end')).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
  });

  it('on cancel sends tasks/cancel to the 0.3 task', async () => {
    agent = await startSdk03Agent();
    const t = fakeTask(ORCH);
    const running = tool(agent).run({ to: agent.url, text: 'hang until canceled' }, t.ctx);
    await new Promise<void>((r) => {
      const check = () => (t.events.some((e) => e.event_type === 'a2a_send') ? r() : setTimeout(check, 5));
      check();
    });
    const peerTaskId = t.events.find((e) => e.event_type === 'a2a_send')!.peer_task_id as string;
    const [residue] = await t.cancel();
    expect(agent.canceled).toEqual([peerTaskId]);
    expect(agent.requests.some((r) => r.method === 'tasks/cancel')).toBe(true);
    expect(residue).toMatchObject({ kind: 'delegation', capsule: 'sdk03-agent', version: '0.3.3' });
    expect(await running).toEqual({ ok: false, error: 'canceled' });
    expect(t.events.find((e) => e.event_type === 'delegation_end')).toMatchObject({
      state: 'canceled',
      cancel_sent: true,
    });
  });
});
