import { z } from 'zod';
import type { WireMessage } from '../../../src-shared/contract';
import type { Core } from '../../core';

// One WebSocket connection carries the whole contract: `invoke` requests answered by `reply`
// envelopes, and every core event pushed as an `event` message. Input validation happens in
// core.handle; here only the message shape is checked.

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
  const unsubscribe = core.subscribe((event, payload) => send({ type: 'event', event, payload }));
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
    void core.handle(parsed.cmd, parsed.input).then((reply) => send({ type: 'reply', id: parsed.id, ...reply }));
  });
  socket.on('close', unsubscribe);
}
