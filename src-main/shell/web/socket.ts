import { z } from 'zod';
import type { WireMessage } from '../../../src-shared/contract';
import type { Core } from '../../core';

// One WebSocket connection carries the whole contract: `invoke` requests answered by `reply`
// envelopes, and core events pushed as `event` messages. The socket is one client of the core:
// trace lines come only for the sessions it follows, and its follows end when it closes. Input
// validation happens in the core; here only the message shape is checked.

const request = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative(),
    cmd: z.string().max(100),
    input: z.unknown(),
  }),
  // The client stopped waiting for a command: the core stops it where it can (a blocking task.send).
  z.strictObject({ type: z.literal('cancel'), id: z.number().int().nonnegative() }),
]);

export interface ContractSocket {
  send(text: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: unknown) => void): void;
  on(event: 'close', listener: () => void): void;
}

/** Serves the contract on one socket until it closes. */
export function serveContract(core: Core, socket: ContractSocket): void {
  const send = (msg: WireMessage) => socket.send(JSON.stringify(msg));
  const client = core.connect((event, payload) => send({ type: 'event', event, payload }));
  // Commands of this socket still running, by the client's id, so a cancel can reach them.
  const running = new Map<number, AbortController>();
  socket.on('message', (data) => {
    let parsed: z.infer<typeof request>;
    try {
      const result = request.safeParse(JSON.parse(String(data)));
      if (!result.success) {
        send({
          type: 'reply',
          id: -1,
          ok: false,
          error: { code: 'invalid_input', message: 'Expected {type:"invoke", id, cmd, input} or {type:"cancel", id}' },
        });
        return;
      }
      parsed = result.data;
    } catch {
      send({ type: 'reply', id: -1, ok: false, error: { code: 'invalid_input', message: 'Messages must be JSON' } });
      return;
    }
    if (parsed.type === 'cancel') return void running.get(parsed.id)?.abort();
    const { id } = parsed;
    const abort = new AbortController();
    running.set(id, abort);
    void client.handle(parsed.cmd, parsed.input, abort.signal).then((reply) => {
      if (running.get(id) === abort) running.delete(id);
      if (!abort.signal.aborted) send({ type: 'reply', id, ...reply });
    });
  });
  socket.on('close', () => {
    for (const abort of running.values()) abort.abort();
    running.clear();
    client.close();
  });
}
