import { afterEach, describe, expect, it } from 'vitest';
import { manifestSchema, servedMethods, servesMethod } from '../../src-shared/manifest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { capabilitiesOf, servedPart } from './methods';
import { doorMethods } from './methods/index';
import { agentCardOf } from './index';

const servedCapabilities = (list: string[] | undefined) => capabilitiesOf(servedPart(doorMethods, list));

// exports.methods: the A2A methods a capsule serves. The others answer -32601 as unknown ones do,
// and the card's capabilities say only what is on.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

describe('exports.methods', () => {
  it('maps 1.0 names and older 0.3 names to the methods served; no list serves all', () => {
    expect(servedMethods(undefined)).toBeUndefined();
    expect([...(servedMethods(['tasks/send', 'tasks/get', 'ListTasks']) ?? [])]).toEqual([
      'SendMessage',
      'GetTask',
      'ListTasks',
    ]);
    const served = servedMethods(['SendMessage']);
    expect(servesMethod(served, 'SendMessage')).toBe(true);
    expect(servesMethod(served, 'GetTask')).toBe(false);
    // Door extension methods are not A2A methods: the Studio stops sessions through them.
    expect(servesMethod(served, 'murmur.StopSession')).toBe(true);
    expect(servedCapabilities(['SendMessage', 'GetTask'])).toEqual({
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
    });
    expect(servedCapabilities(['message/stream', 'tasks/pushNotificationConfig/set'])).toEqual({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: false,
    });
    expect(servedCapabilities(undefined)).toEqual({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
    });
  });

  it('refuses a manifest naming a method that does not exist', () => {
    const r = manifestSchema.safeParse({
      name: 'x',
      version: '1',
      inference: { driver: { artifact: 'capsule/driver-rehearsal' } },
      exports: { methods: ['SendMessage', 'tasks/explode'] },
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['exports', 'methods', 1]);
  });

  it('serves only the declared methods, and the card says streaming and push are off', async () => {
    ts = await startTestSession({ exports: { methods: ['tasks/send', 'tasks/get'] } });
    const sent = await ts.rpc('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
    });
    expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await ts.rpc('GetTask', { id: sent.result.task.id })).result.id).toBe(sent.result.task.id);
    for (const method of [
      'SendStreamingMessage',
      'ListTasks',
      'CancelTask',
      'SubscribeToTask',
      'CreateTaskPushNotificationConfig',
      'GetExtendedAgentCard',
    ]) {
      const r = await ts.rpc(method, { id: sent.result.task.id });
      expect(r.error, method).toMatchObject({ code: -32601 });
    }
    // The door's own extension still answers.
    expect((await ts.rpc('murmur.StopSession')).result.canceled).toEqual([]);
    const card = (await (await fetch(`${ts.session.url}/.well-known/agent-card.json`)).json()) as any;
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false, extendedAgentCard: false });
    expect(card.capabilities.extensions.map((e: { uri: string }) => e.uri)).not.toContain(
      'https://capsule.studio/a2a/ext/frames/v1',
    );
    // The card other parts of the Studio read (the gateway's) says the same.
    expect(agentCardOf(ts.session).capabilities).toMatchObject({
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
    });
  });

  it('without a list serves everything and says so', async () => {
    ts = await startTestSession({});
    expect((await ts.rpc('ListTasks', {})).result.tasks).toEqual([]);
    const card = (await (await fetch(`${ts.session.url}/.well-known/agent-card.json`)).json()) as any;
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true, extendedAgentCard: true });
  });
});
