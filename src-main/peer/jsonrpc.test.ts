import { describe, expect, it } from 'vitest';
import { decodeAnswer, METHODS_03_TO_10, METHODS_10_TO_03, readBounded, readRequest } from './jsonrpc';

// The A2A JSON-RPC wire every caller of a door shares: what an answer is, and how much of one is read.

describe('the A2A JSON-RPC wire', () => {
  it('tells a result, a JSON-RPC error and something that is not JSON-RPC apart', () => {
    expect(decodeAnswer('{"jsonrpc":"2.0","id":1,"result":{"id":"t"}}')).toEqual({ ok: true, result: { id: 't' } });
    expect(decodeAnswer('{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}')).toEqual({
      ok: false,
      error: { code: -32001, message: 'Task not found' },
    });
    expect(decodeAnswer('<html>502</html>')).toEqual({ ok: false, notRpc: 'not_json' });
    expect(decodeAnswer('{"result":1}')).toEqual({ ok: false, notRpc: 'not_jsonrpc' });
    expect(decodeAnswer('{"jsonrpc":"2.0","error":{"code":"x"}}')).toEqual({ ok: false, notRpc: 'not_jsonrpc' });
  });

  it('reads a request enough to route it, and nothing that is not one', () => {
    expect(readRequest('{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"t"}}')).toEqual({
      id: 7,
      method: 'GetTask',
      params: { id: 't' },
    });
    expect(readRequest('{"jsonrpc":"2.0","id":{},"method":"GetTask"}')).toMatchObject({ id: null });
    expect(readRequest('[1,2]')).toBeUndefined();
    expect(readRequest('{')).toBeUndefined();
  });

  it('names each 0.3 method once, both ways', () => {
    for (const [v03, v10] of Object.entries(METHODS_03_TO_10)) expect(METHODS_10_TO_03[v10]).toBe(v03);
    expect(METHODS_10_TO_03.SendMessage).toBe('message/send');
  });

  it('stops reading past the bound whether or not the answer said its length', async () => {
    const fail = { tooBig: () => new Error('too big'), broken: (e: Error) => e };
    const said = new Response('x'.repeat(10), { headers: { 'content-length': '10' } });
    await expect(readBounded(said, fail, 5)).rejects.toThrow('too big');
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(4));
      },
    });
    await expect(readBounded(new Response(endless), fail, 64)).rejects.toThrow('too big');
    expect(pulled).toBeLessThan(40);
    expect(await readBounded(new Response('{"ok":1}'), fail, 64)).toBe('{"ok":1}');
  });
});
