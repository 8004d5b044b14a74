import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOOR_EXTENSION_URI, FRAMES_EXTENSION_URI } from '../../src-shared/a2a';
import { startTestSession, type TestSession } from '../runtime/testing';
import { buildDoor, doorMethods, pickMethods } from './index';

// A door serves exactly the table it was handed: the rest is -32601, and its card declares only
// what it serves. Two doors of one process can serve different tables.

let ts: TestSession;
beforeAll(async () => {
  ts = await startTestSession();
});
afterAll(() => ts.dispose());

const call = (door: ReturnType<typeof buildDoor>, method: string, params: unknown = {}) =>
  door
    .inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    .then((r) => r.json());

describe('door method table', () => {
  it('answers the methods in its table and -32601 for every other', async () => {
    const door = buildDoor({ session: ts.session, methods: pickMethods(doorMethods, ['GetTask', 'ListTasks']) });
    try {
      expect((await call(door, 'ListTasks')).result).toMatchObject({ tasks: [], nextPageToken: '' });
      expect((await call(door, 'GetTask', { id: 'tsk_nope' })).error.code).toBe(-32001);
      for (const m of [
        'SendMessage',
        'SendStreamingMessage',
        'CancelTask',
        'murmur.StopSession',
        'CreateTaskPushNotificationConfig',
      ]) {
        expect((await call(door, m, { id: 'tsk_nope' })).error).toMatchObject({ code: -32601 });
      }
      // The table is looked up as a map: Object's own property names are not methods.
      for (const m of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
        expect((await call(door, m)).error.code).toBe(-32601);
    } finally {
      await door.close();
    }
  });

  it('declares in its card only the capabilities and door extension methods it serves', async () => {
    const door = buildDoor({
      session: ts.session,
      methods: pickMethods(doorMethods, ['GetExtendedAgentCard', 'murmur.StopSession']),
    });
    try {
      const card = (await door.inject({ method: 'GET', url: '/.well-known/agent-card.json' })).json();
      expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
      expect(card.capabilities.extensions.find((e: any) => e.uri === DOOR_EXTENSION_URI)?.params).toEqual({
        methods: ['murmur.StopSession'],
      });
      expect(card.capabilities.extensions.some((e: any) => e.uri === FRAMES_EXTENSION_URI)).toBe(false);
      expect((await call(door, 'GetExtendedAgentCard')).result).toEqual(card);
    } finally {
      await door.close();
    }
    // The session's own door (the launcher's, the whole table) still declares everything.
    const full = (await (await fetch(`${ts.session.url}/.well-known/agent-card.json`)).json()) as any;
    expect(full.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
  });

  it('picks by name, leaving out names it does not serve', () => {
    expect(Object.keys(pickMethods(doorMethods, ['CancelTask', 'NoSuchMethod', 'toString']))).toEqual(['CancelTask']);
  });
});
