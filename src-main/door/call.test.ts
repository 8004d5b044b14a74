import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { callSession } from './call';

// callSession runs a door method in process through the same checks as the HTTP door: a request
// that fails there fails here with the same JSON-RPC error, and what needs HTTP is refused before
// it starts anything.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('callSession', () => {
  it('refuses bad params, too deep nesting and unknown methods with the error the door sends', async () => {
    ts = await startTestSession();
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 80; i++) at = (at.x = {}) as Record<string, unknown>;
    for (const [method, params] of [
      ['GetTask', { id: 5 }],
      ['GetTask', { id: 't', deep }],
      ['GetTask', { id: 'tsk_nobody' }],
      ['NoSuchMethod', {}],
      ['toString', {}],
    ] as const) {
      const inProcess = (await failure(callSession(ts.session, method, params))) as { toJSON(): unknown };
      const overHttp = await ts.rpc(method, params);
      expect(overHttp.error).toBeDefined();
      expect(inProcess.toJSON()).toEqual(overHttp.error);
    }
  });

  it('answers a method as the door does, and refuses a stream before it accepts a task', async () => {
    ts = await startTestSession();
    const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
    const sent = (await callSession(ts.session, 'SendMessage', { message })) as { task: { id: string } }; // blocking: answers once it ended
    const got = await callSession(ts.session, 'GetTask', { id: sent.task.id, historyLength: 1 });
    expect(got).toEqual((await ts.rpc('GetTask', { id: sent.task.id, historyLength: 1 })).result);
    const before = ts.session.listTasks().length;
    const stream = (await failure(
      callSession(ts.session, 'SendStreamingMessage', { message: { ...message, messageId: 'm-2' } }),
    )) as { code: number };
    expect(stream.code).toBe(-32004);
    expect(ts.session.listTasks().length).toBe(before);
  });
});
