import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { traceLines } from '../runtime/trace-lines';
import { buildDoor } from './index';
import { DOOR_BUSY_CODE } from './turn-away';

// A flood of callers against a door with a small connection cap: every caller gets an answer
// (its JSON-RPC result, or 503 busy with Retry-After), none a reset.

let ts: TestSession | undefined;
let door: FastifyInstance | undefined;
afterEach(async () => {
  await door?.close();
  door = undefined;
  await ts?.dispose();
  ts = undefined;
});

interface Exchange {
  answer: string;
  error?: string;
}

/** One caller on a raw socket: a whole SendMessage, then whatever comes back until the door closes. */
function send(port: number, n: number): Promise<Exchange> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method: 'SendMessage',
    params: { message: { messageId: `m${n}`, role: 'ROLE_USER', parts: [{ text: `caller ${n}` }] } },
  });
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let error: string | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d) => (answer += d));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.once('close', () => resolve({ answer, error }));
    socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

const headOf = (answer: string) => answer.slice(0, answer.indexOf('\r\n\r\n'));
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('a door past its connection cap', () => {
  it('answers 1,000 concurrent callers with a result or a 503 busy, and resets none', async () => {
    // Each task takes a little while, so the first callers hold their connections while the rest arrive.
    ts = await startTestSession({ inference: { rehearsal: { delay_ms: 100 } }, lifecycle: { queue_depth: 1000 } });
    door = buildDoor({ session: ts.session, limits: { maxConnections: 8 } });
    await door.listen({ host: '127.0.0.1', port: 0 });
    const port = (door.server.address() as AddressInfo).port;

    const exchanges = await Promise.all(Array.from({ length: 1000 }, (_, n) => send(port, n)));

    expect(exchanges.filter((e) => e.error).map((e) => e.error)).toEqual([]);
    const served = exchanges.filter((e) => e.answer.startsWith('HTTP/1.1 200'));
    const busy = exchanges.filter((e) => e.answer.startsWith('HTTP/1.1 503'));
    expect(served.length + busy.length).toBe(1000);
    expect(served.length).toBeGreaterThanOrEqual(8);
    expect(busy.length).toBeGreaterThan(0);
    for (const e of served) expect(bodyOf(e.answer).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    for (const e of busy) {
      expect(headOf(e.answer)).toMatch(/\r\nRetry-After: 1\r\n/);
      expect(headOf(e.answer)).toMatch(/\r\nContent-Type: application\/json\r\n/);
      const answer = bodyOf(e.answer);
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: DOOR_BUSY_CODE } });
      expect(answer.error.message).toContain('at most 8 connections');
    }

    // Traced a line a second at most, the lines' counts adding up to every refusal.
    await expect
      .poll(() =>
        traceLines(ts!.session)
          .filter((l) => l.event_type === 'door_connection_refused')
          .reduce((n, l) => n + Number(l.count), 0),
      )
      .toBe(busy.length);
    const lines = traceLines(ts.session).filter((l) => l.event_type === 'door_connection_refused');
    expect(lines.length).toBeLessThan(busy.length);
    expect(lines[0]).toMatchObject({ answered: 503, max_connections: 8 });
  });
});
