import { z } from 'zod';
import type { WireMessage } from '../../../src-shared/contract';
import type { Core } from '../../core';

// One WebSocket connection carries the whole contract: `invoke` requests answered by `reply`
// envelopes, and core events pushed as `event` messages. The socket is one client of the core:
// trace lines come only for the sessions it follows, and its follows end when it closes. Input
// validation happens in the core; here only the message shape is checked.

const request = z.strictObject({ type: z.literal('invoke'), id: z.number().int().nonnegative(), cmd: z.string().max(100), input: z.unknown() });

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
  socket.on('message', (data) => {
    let parsed: z.infer<typeof request>;
    try {
      const result = request.safeParse(JSON.parse(String(data)));
      if (!result.success) {
        send({ type: 'reply', id: -1, ok: false, error: { code: 'invalid_input', message: 'Expected {type:"invoke", id, cmd, input}' } });
        return;
      }
      parsed = result.data;
    } catch {
      send({ type: 'reply', id: -1, ok: false, error: { code: 'invalid_input', message: 'Messages must be JSON' } });
      return;
    }
    void client.handle(parsed.cmd, parsed.input).then((reply) => send({ type: 'reply', id: parsed.id, ...reply }));
  });
  socket.on('close', () => client.close());
}
