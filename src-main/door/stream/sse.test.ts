import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSse, type SseCloseReason, type SseOptions, type SseStream } from './sse';

// A server whose one route opens an SSE stream with the given options and hands it to the test
// (`sendAtOnce`: an event sent in the tick the stream opens; `closeAtOnce`: closed in it too). It
// counts the writes that reach the socket (each one a system call, and a TCP segment of its own).
async function serve(options: SseOptions & { onCapSend?: unknown; sendAtOnce?: unknown; closeAtOnce?: boolean }) {
  let resolveStream!: (s: SseStream) => void;
  const opened = new Promise<SseStream>((r) => (resolveStream = r));
  const closes: SseCloseReason[] = [];
  let socketWrites = 0;
  const server: Server = createServer((req, res) => {
    type Write = (...args: unknown[]) => void;
    const socket = req.socket as Socket & { _write: Write; _writev: Write };
    for (const name of ['_write', '_writev'] as const) {
      const original = socket[name];
      socket[name] = function (this: Socket, ...args: unknown[]) {
        socketWrites++;
        return original.apply(this, args);
      };
    }
    const stream: SseStream = openSse(req, res, 'req-7', {
      ...options,
      onCap: options.onCapSend === undefined ? undefined : () => stream.send(options.onCapSend),
    });
    if (options.sendAtOnce !== undefined) stream.send(options.sendAtOnce);
    if (options.closeAtOnce) stream.close();
    stream.onClose((why) => closes.push(why));
    resolveStream(stream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const chunks: string[] = [];
  let headers: Record<string, unknown> = {};
  let destroy!: () => void;
  let onResponse!: () => void;
  const responded = new Promise<void>((r) => (onResponse = r));
  const ended = new Promise<void>((resolve) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/' }, (res) => {
      headers = res.headers;
      onResponse();
      res.setEncoding('utf8');
      res.on('data', (c: string) => chunks.push(c));
      res.on('end', resolve);
      res.on('close', resolve);
    });
    destroy = () => req.destroy();
    req.end();
  });
  const stream = await opened;
  const text = () => chunks.join('');
  const until = async (pred: () => boolean) => {
    while (!pred()) await new Promise((r) => setTimeout(r, 5));
  };
  return {
    stream,
    closes,
    text,
    until,
    ended,
    responded,
    socketWrites: () => socketWrites,
    headers: () => headers,
    destroy: () => destroy(),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('SSE writer', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  it('writes each result as one data line holding a JSON-RPC response with the request id', async () => {
    const s = await serve({ keepaliveMs: 0, headers: { 'a2a-extensions': 'urn:x' } });
    open.push(s);
    s.stream.send({ task: { id: 't', status: { state: 'TASK_STATE_WORKING' }, note: 'two\nlines' } });
    s.stream.send({ statusUpdate: { taskId: 't' } });
    s.stream.close();
    await s.ended;
    expect(s.headers()['content-type']).toBe('text/event-stream');
    expect(s.headers()['a2a-extensions']).toBe('urn:x');
    const events = s.text().split('\n\n').filter(Boolean);
    expect(events).toHaveLength(2);
    for (const e of events) expect(e).toMatch(/^data: [^\n]+$/);
    expect(JSON.parse(events[0].slice(6))).toEqual({
      jsonrpc: '2.0',
      id: 'req-7',
      result: { task: { id: 't', status: { state: 'TASK_STATE_WORKING' }, note: 'two\nlines' } },
    });
    expect(s.closes).toEqual(['done']);
  });

  it('sends the headers and an event ready at once in one socket write', async () => {
    const s = await serve({ keepaliveMs: 0, sendAtOnce: { task: { id: 't' } } });
    open.push(s);
    await s.until(() => s.text().includes('data:'));
    expect(s.socketWrites()).toBe(1);
    expect(s.headers()['content-type']).toBe('text/event-stream');
    s.stream.close();
  });

  it('sends the headers of a stream with nothing to say yet at once', async () => {
    const s = await serve({ keepaliveMs: 0 });
    open.push(s);
    await s.responded;
    expect(s.headers()['content-type']).toBe('text/event-stream');
    expect(s.text()).toBe('');
    s.stream.close();
  });

  it('starts no timers for a stream over in the tick it opened', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const s = await serve({
        keepaliveMs: 12_345,
        maxLifeMs: 54_321,
        sendAtOnce: { task: { id: 't' } },
        closeAtOnce: true,
      });
      open.push(s);
      await s.ended;
      expect(s.text()).toContain('data:');
      const ours = timers.mock.calls.filter(([, ms]) => ms === 12_345 || ms === 54_321);
      expect(ours).toEqual([]);
    } finally {
      timers.mockRestore();
    }
  });

  it('sends keepalive comments only while quiet', async () => {
    const s = await serve({ keepaliveMs: 40 });
    open.push(s);
    await s.until(() => s.text().split(': keepalive\n\n').length >= 3);
    const before = s.text().length;
    s.stream.send({ n: 1 });
    // a send restarts the quiet period: the next thing written is a keepalive after it
    await s.until(() => s.text().slice(before).includes(': keepalive'));
    expect(s.text().slice(before)).toMatch(/^data: .*\n\n: keepalive\n\n/);
    s.stream.close();
  });

  it('closes at the life cap after writing the last event', async () => {
    const s = await serve({
      keepaliveMs: 0,
      maxLifeMs: 80,
      onCapSend: { statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } },
    });
    open.push(s);
    await s.ended;
    expect(s.text()).toBe(
      `data: ${JSON.stringify({ jsonrpc: '2.0', id: 'req-7', result: { statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } } })}\n\n`,
    );
    expect(s.closes).toEqual(['cap']);
  });

  it('a client that goes away runs the close listeners and later sends are no-ops', async () => {
    const s = await serve({ keepaliveMs: 20 });
    open.push(s);
    s.stream.send({ n: 1 });
    await s.until(() => s.text().includes('data:'));
    s.destroy();
    await s.until(() => s.closes.length > 0);
    expect(s.closes).toEqual(['client']);
    expect(s.stream.closed).toBe(true);
    expect(() => s.stream.send({ n: 2 })).not.toThrow();
    s.stream.close();
    expect(s.closes).toEqual(['client']);
  });

  it('reports an error after the stream opened as an error event, then closes', async () => {
    const s = await serve({ keepaliveMs: 0 });
    open.push(s);
    s.stream.fail({ code: -32603, message: 'Internal error' });
    await s.ended;
    expect(s.text()).toBe(
      `event: error\ndata: {"jsonrpc":"2.0","id":"req-7","error":{"code":-32603,"message":"Internal error"}}\n\n`,
    );
  });
});
