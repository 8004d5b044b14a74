import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEER_HEADER } from '../../src-shared/a2a';
import { startTestSession, type TestSession } from '../runtime/testing';

// Bad input never takes the door down; every error is a JSON-RPC error with HTTP 200.

let ts: TestSession;
beforeAll(async () => {
  ts = await startTestSession();
});
afterAll(() => ts.dispose());

async function post(body: string | Buffer, headers: Record<string, string> = {}, path = '/') {
  const res = await fetch(ts.session.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const still = async () => {
  const r = await ts.rpc('GetTask', { id: 'tsk_missing' });
  expect(r.error.code).toBe(-32001);
};

describe('door errors', () => {
  it('invalid JSON is -32700', async () => {
    const r = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(r).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: null, error: { code: -32700 } } });
    await still();
  });

  it('a bad envelope is -32600', async () => {
    for (const body of [
      '[]',
      '42',
      '{"id":1,"method":"GetTask"}',
      '{"jsonrpc":"2.0","id":{},"method":"GetTask"}',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]}',
    ]) {
      const r = await post(body);
      expect(r.status).toBe(200);
      expect(r.body.error.code, body).toBe(-32600);
    }
    await still();
  });

  it('unknown methods, 0.3 names included, are -32601', async () => {
    for (const m of ['NoSuchMethod', 'message/send', 'tasks/get']) {
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id: 5, method: m, params: {} }));
      expect(r.body).toMatchObject({ id: 5, error: { code: -32601 } });
    }
    await still();
  });

  it('bad params are -32602 naming the field', async () => {
    const r1 = await ts.rpc('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } });
    expect(r1.error.code).toBe(-32602);
    expect(r1.error.message).toContain('params.message.parts');
    const r2 = await ts.rpc('GetTask', {});
    expect(r2.error.message).toContain('params.id');
    const r3 = await ts.rpc('GetTask', { id: 'tsk_x', historyLength: -1 });
    expect(r3.error.code).toBe(-32602);
    const r4 = await ts.rpc('SendMessage', {
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a', data: 1 }] },
    });
    expect(r4.error.code).toBe(-32602);
    await still();
  });

  it('an oversized body is a clear error naming the limit, and the door stays up', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { pad: 'x'.repeat(1024 * 1024 + 10) },
    });
    const r = await post(big);
    expect(r.status).toBe(200);
    expect(r.body.error.code).toBe(-32600);
    expect(r.body.error.message).toContain('1 MiB');
    await still();
  });

  it('a content type other than JSON is -32005', async () => {
    const r = await post('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}', {
      'content-type': 'text/plain',
    });
    expect(r).toMatchObject({ status: 200, body: { error: { code: -32005 } } });
    const none = await fetch(ts.session.url, {
      method: 'POST',
      headers: { 'a2a-version': '1.0' },
      body: new TextEncoder().encode('{}'),
    });
    expect(none.status).toBe(200);
    expect(((await none.json()) as any).error.code).toBe(-32005);
    await still();
  });

  it('a wrong version is -32009; the patch number is ignored', async () => {
    const bad = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }), {
      'a2a-version': '0.3',
    });
    expect(bad.body.error.code).toBe(-32009);
    const patch = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }), {
      'a2a-version': '1.0.2',
    });
    expect(patch.body.error.code).toBe(-32001);
  });

  it('accepts the trailing-slash variant and snake_case params', async () => {
    const sent = await ts.rpc('SendMessage', {
      message: { message_id: 'm1', context_id: 'c1', role: 'ROLE_USER', parts: [{ text: 'snake' }] },
    });
    expect(sent.result.task.contextId).toBe('c1');
    const r = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'GetTask',
        params: { id: sent.result.task.id, history_length: 0 },
      }),
      {},
      '//',
    );
    expect(r.body.result.id).toBe(sent.result.task.id);
    expect('history' in r.body.result).toBe(false);
  });

  it('refuses a peer capsule with 403 peer_not_accepted when exports.peer_tasks.accept is not set', async () => {
    const r = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }), {
      [PEER_HEADER]: 'boss; session=ses_1',
    });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/^peer_not_accepted/);
    expect(r.body.error.data[0].reason).toBe('PEER_NOT_ACCEPTED');
    await still();
  });
});

describe('peer acceptance', () => {
  it('serves a peer when the manifest accepts peer tasks, and traces the peer header', async () => {
    const open = await startTestSession({ exports: { peer_tasks: { accept: true } } });
    try {
      const r = await open.rpc(
        'SendMessage',
        { message: { messageId: 'p1', role: 'ROLE_USER', parts: [{ text: 'from a peer' }] } },
        {
          headers: {
            [PEER_HEADER]: 'boss; session=ses_1',
            traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
          },
        },
      );
      expect(r.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      open.session.trace.flushSync();
      const { readFileSync } = await import('node:fs');
      const rec = readFileSync(open.session.trace.path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((l) => l.event_type === 'a2a_task_received');
      expect(rec).toMatchObject({
        peer: 'boss; session=ses_1',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      });
    } finally {
      await open.dispose();
    }
  });
});
