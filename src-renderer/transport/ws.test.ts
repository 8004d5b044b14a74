import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import { CoreError } from '../../src-shared/contract';
import { createWsClient } from './ws';
import { createIpcClient } from './index';

// The renderer's clients against a stand-in core speaking the wire format.

let server: WebSocketServer | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

function startServer(): Promise<string> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const req = JSON.parse(String(data));
      if (req.cmd === 'formation.get')
        socket.send(JSON.stringify({ type: 'reply', id: req.id, ok: true, value: { dir: '/w' } }));
      else
        socket.send(
          JSON.stringify({
            type: 'reply',
            id: req.id,
            ok: false,
            error: { code: 'not_found', message: 'No capsule x' },
          }),
        );
      socket.send(
        JSON.stringify({
          type: 'event',
          event: 'notice.raised',
          payload: { level: 'info', message: `did ${req.cmd}` },
        }),
      );
    });
  });
  return new Promise((r) =>
    server!.on('listening', () => r(`ws://127.0.0.1:${(server!.address() as { port: number }).port}`)),
  );
}

describe('transport', () => {
  it('WebSocket client: queues until open, resolves values, throws typed errors, delivers events', async () => {
    const url = await startServer();
    const client = createWsClient({ url, WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket });
    const notices: string[] = [];
    const off = client.on('notice.raised', (p) => notices.push(p.message));
    await expect(client.invoke('formation.get', {})).resolves.toEqual({ dir: '/w' });
    const err = await client.invoke('capsule.stop', { id: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect(err).toMatchObject({ code: 'not_found', message: 'No capsule x' });
    await expect.poll(() => notices).toEqual(['did formation.get', 'did capsule.stop']);
    off();
    client.dispose();
    await expect(client.invoke('formation.get', {})).rejects.toMatchObject({ code: 'disconnected' });
  });

  it('IPC client: unwraps the bridge envelope and unsubscribes', async () => {
    const listeners = new Set<(p: unknown) => void>();
    const client = createIpcClient({
      invoke: async (cmd) =>
        cmd === 'formation.get'
          ? { ok: true, value: { dir: '/w' } }
          : { ok: false, error: { code: 'invalid_input', message: 'bad' } },
      on: (_e, l) => (listeners.add(l), () => listeners.delete(l)),
    });
    await expect(client.invoke('formation.get', {})).resolves.toEqual({ dir: '/w' });
    await expect(client.invoke('capsule.stop', { id: 'x' })).rejects.toMatchObject({ code: 'invalid_input' });
    const off = client.on('notice.raised', () => undefined);
    expect(listeners.size).toBe(1);
    off();
    expect(listeners.size).toBe(0);
  });
});
