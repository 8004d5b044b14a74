import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { traceLines } from '../runtime/trace-lines';
import { buildDoor, DOOR_LIMITS, MAX_PARAMS_DEPTH } from './index';
import { MAX_ID_CHARS } from './params';
import { DOOR_BUSY_CODE } from './turn-away';

// The door's request timeouts and connection cap, on real sockets; and params nested too deep.

let ts: TestSession | undefined;
let door: FastifyInstance | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await door?.close();
  door = undefined;
  await ts?.dispose();
  ts = undefined;
});

/** Opens a socket that sends a request's headers and then trickles its body, a byte at a time. */
function trickle(port: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => (answer += d));
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    socket.write(
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: 100000\r\n\r\n{',
    );
    const timer = setInterval(() => (socket.writable ? socket.write(' ') : clearInterval(timer)), 100);
    socket.once('close', () => clearInterval(timer));
  });
  return { socket, closed: new Promise((resolve) => socket.once('close', () => resolve(answer))) };
}

const counted = (session: TestSession['session'], type: string) =>
  traceLines(session)
    .filter((l) => l.event_type === type)
    .reduce((n, l) => n + Number(l.count), 0);

describe('door limits', () => {
  it('sets request, headers and keep-alive timeouts and a connection cap by default', async () => {
    ts = await startTestSession();
    door = buildDoor({ session: ts.session });
    expect(door.server.requestTimeout).toBe(DOOR_LIMITS.requestTimeoutMs);
    expect(door.server.headersTimeout).toBe(DOOR_LIMITS.headersTimeoutMs);
    expect(door.server.keepAliveTimeout).toBe(DOOR_LIMITS.keepAliveTimeoutMs);
    // Node's own cap only closes what is past the cap and the sockets being turned away with a 503.
    expect(door.server.maxConnections).toBe(DOOR_LIMITS.maxConnections + DOOR_LIMITS.maxTurningAway);
  });

  it('closes 200 trickling sockets: those past the cap at once with a 503, the rest at the request timeout, and keeps answering', async () => {
    ts = await startTestSession();
    door = buildDoor({
      session: ts.session,
      limits: { requestTimeoutMs: 2000, headersTimeoutMs: 1000, maxConnections: 50, checkIntervalMs: 100 },
    });
    await door.listen({ host: '127.0.0.1', port: 0 });
    const port = (door.server.address() as AddressInfo).port;
    const opened = Array.from({ length: 200 }, () => trickle(port));
    const answers = await Promise.all(opened.map((o) => o.closed));
    const timedOut = answers.filter((a) => a.startsWith('HTTP/1.1 408'));
    expect(timedOut.length).toBe(50);
    expect(timedOut[0]).toContain('"code":-32600');
    const busy = answers.filter((a) => a.startsWith('HTTP/1.1 503'));
    expect(busy.length).toBe(150);
    expect(busy[0]).toContain('\r\nRetry-After: 1\r\n');
    expect(JSON.parse(busy[0].slice(busy[0].indexOf('\r\n\r\n') + 4))).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: DOOR_BUSY_CODE },
    });
    // One trace line a second per kind, each with how many it stands for.
    await expect.poll(() => counted(ts!.session, 'door_connection_refused'), { timeout: 5000 }).toBe(150);
    await expect.poll(() => counted(ts!.session, 'door_request_timeout'), { timeout: 5000 }).toBe(50);
    const refused = traceLines(ts.session).find((l) => l.event_type === 'door_connection_refused');
    expect(refused).toMatchObject({ remote_address: '127.0.0.1', max_connections: 50, answered: 503 });
    // The door still answers (a request well within its 2 s, however busy the machine).
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'still there?' }] } },
      }),
    });
    const answer = (await res.json()) as any;
    expect(answer.error).toBeUndefined();
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('answers a data part nested 10,000 levels deep with -32602 naming the field, and keeps answering', async () => {
    ts = await startTestSession();
    const n = 10_000;
    const data = '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const body = `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":${data}}]}}}`;
    const post = (b: string) =>
      fetch(ts!.session.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: b,
      }).then((r) => r.json() as Promise<any>);
    const deep = await post(body);
    expect(deep.id).toBe(7);
    expect(deep.error.code).toBe(-32602);
    expect(deep.error.message).toBe(
      `Invalid parameters: params.message.parts.0.data: nested deeper than ${MAX_PARAMS_DEPTH} levels of objects and arrays`,
    );
    // Deep metadata is refused the same way; data within the limit is taken.
    const meta = '{"k":'.repeat(100) + '1' + '}'.repeat(100);
    const deepMeta = await post(
      `{"jsonrpc":"2.0","id":8,"method":"SendMessage","params":{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"x"}],"metadata":${meta}}}}`,
    );
    expect(deepMeta.error.message).toContain('params.message.metadata:');
    const fine = '{"a":'.repeat(40) + '1' + '}'.repeat(40);
    const ok = await post(
      `{"jsonrpc":"2.0","id":9,"method":"SendMessage","params":{"message":{"messageId":"m3","role":"ROLE_USER","parts":[{"data":${fine}}]}}}`,
    );
    expect(ok.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(traceLines(ts.session).some((l) => l.event_type === 'door_error')).toBe(false);
  });
});

describe('ids a door takes', () => {
  it('refuses a context id longer than MAX_ID_CHARS with -32602 naming it', async () => {
    ts = await startTestSession();
    const long = await ts.rpc('SendMessage', {
      message: { messageId: 'm', contextId: 'c'.repeat(MAX_ID_CHARS + 1), role: 'ROLE_USER', parts: [{ text: 'x' }] },
    });
    expect(long.error.code).toBe(-32602);
    expect(long.error.message).toContain('params.message.contextId');
    const ok = await ts.rpc('SendMessage', {
      message: { messageId: 'm', contextId: 'c'.repeat(MAX_ID_CHARS), role: 'ROLE_USER', parts: [{ text: 'x' }] },
    });
    expect(ok.result.task.contextId).toHaveLength(MAX_ID_CHARS);
  });
});
