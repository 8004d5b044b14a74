import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A2AClient,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from 'a2a-sdk-v03/client';
import { waitFor } from '../runtime/testing';
import { resultTo03 } from './compat03';
import { startTestGateway, type TestGateway } from './testing';

// A2A 0.3 compatibility, opt-in per exposure, against the @a2a-js/sdk 0.3.14 client.

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({ inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } });
  token = t.gateway.exposures.enable(t.name, { compat03: true }).token;
});
afterAll(() => t.dispose());

const card03Url = () => `${t.gateway.urlsOf(t.name).url}v0.3/agent-card.json`;
const msg = (text: string) => ({
  kind: 'message' as const,
  messageId: `m-${Math.random()}`,
  role: 'user' as const,
  parts: [{ kind: 'text' as const, text }],
});

describe('A2A 0.3 compatibility', () => {
  it('is off by default: no 0.3 card, and 0.3 methods are not translated', async () => {
    const t2 = await startTestGateway();
    try {
      const tok = t2.gateway.exposures.enable(t2.name).token;
      const res = await t2.authFetch(tok)(`${t2.gateway.urlsOf(t2.name).url}v0.3/agent-card.json`);
      expect(res.status).toBe(404);
      const card = (await (await t2.authFetch(tok)(t2.gateway.urlsOf(t2.name).card)).json()) as any;
      expect(card.supportedInterfaces.map((i: any) => i.protocolVersion)).toEqual(['1.0']);
      const r = await t2.rpc(tok, 'message/send', { message: msg('hi') }, { 'a2a-version': '' });
      expect(r.body.error).toBeDefined();
    } finally {
      await t2.dispose();
    }
  });

  it('serves the 0.3 card and a 0.3 interface on the 1.0 card', async () => {
    const c = (await (await t.authFetch(token)(card03Url())).json()) as any;
    expect(c).toMatchObject({
      protocolVersion: '0.3.0',
      url: t.gateway.urlsOf(t.name).url,
      preferredTransport: 'JSONRPC',
    });
    const card = (await (await t.authFetch(token)(t.gateway.urlsOf(t.name).card)).json()) as any;
    expect(card.supportedInterfaces.map((i: any) => i.protocolVersion)).toEqual(['1.0', '0.3']);
  });

  it('message/send, tasks/get and tasks/cancel with the 0.3 A2AClient', async () => {
    const client = await A2AClient.fromCardUrl(card03Url(), { fetchImpl: t.authFetch(token) });
    const sent: any = await client.sendMessage({
      message: msg('hello old sdk'),
      configuration: { blocking: true, acceptedOutputModes: ['text/plain'] },
    });
    expect(sent.error).toBeUndefined();
    expect(sent.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(sent.result.artifacts[0].parts[0]).toEqual({ kind: 'text', text: 'Acknowledged: “hello old sdk”' });
    const got: any = await client.getTask({ id: sent.result.id });
    expect(got.result).toMatchObject({ kind: 'task', id: sent.result.id, status: { state: 'completed' } });

    const pending: any = await client.sendMessage({ message: msg('hang now') });
    expect(pending.result.status.state).toMatch(/submitted|working/); // blocking unset: answers at once
    const s = t.capsule.session;
    await waitFor(s, () => s.taskState(pending.result.id) === 'TASK_STATE_WORKING');
    const events: any[] = [];
    let opened!: () => void;
    const firstEvent = new Promise<void>((r) => (opened = r));
    const resubscribed = (async () => {
      for await (const e of client.resubscribeTask({ id: pending.result.id })) {
        events.push(e);
        opened();
      }
    })();
    await firstEvent; // the stream is open before the cancel
    const canceled: any = await client.cancelTask({ id: pending.result.id });
    await resubscribed;
    expect(events[0]).toMatchObject({ kind: 'task', id: pending.result.id });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
    expect(canceled.result).toMatchObject({ kind: 'task', status: { state: 'canceled' } });
    const missing: any = await client.getTask({ id: 'tsk_missing' });
    expect(missing.error.code).toBe(-32001);
  });

  it('message/stream yields kind-tagged events ending with final: true', async () => {
    const f = t.authFetch(token);
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: f })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: f }),
      }),
    );
    const client = await factory.createFromUrl(card03Url(), '');
    const events: any[] = [];
    for await (const e of client.sendMessageStream({ message: msg('stream old') })) events.push(e);
    expect(events[0].kind).toBe('task');
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    expect(events.some((e) => e.kind === 'artifact-update')).toBe(true);
    const blocking = await client.sendMessage({ message: msg('blocking by client default') });
    expect(blocking).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('final: true where the stream ends (an interrupted state ends message/stream, not tasks/resubscribe)', () => {
    const update = (state: string) => ({ statusUpdate: { taskId: 't', contextId: 'c', status: { state } } });
    expect(resultTo03(update('TASK_STATE_INPUT_REQUIRED'), 'message/stream')).toMatchObject({
      kind: 'status-update',
      final: true,
      status: { state: 'input-required' },
    });
    expect(resultTo03(update('TASK_STATE_INPUT_REQUIRED'), 'tasks/resubscribe')).toMatchObject({ final: false });
    expect(resultTo03(update('TASK_STATE_COMPLETED'), 'tasks/resubscribe')).toMatchObject({ final: true });
    expect(resultTo03(update('TASK_STATE_WORKING'), 'message/stream')).toMatchObject({ final: false });
  });

  it('agent/getAuthenticatedExtendedCard answers the 0.3 card', async () => {
    const r = await t.rpc(token, 'agent/getAuthenticatedExtendedCard', {}, { 'a2a-version': '' });
    expect(r.body.result).toMatchObject({ protocolVersion: '0.3.0', name: t.name });
  });
});
