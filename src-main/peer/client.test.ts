import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PEER_HEADER } from '../../src-shared/a2a';
import { createPeerClient, PeerError, PolicyRefusal } from './index';

// The client against plain node:http servers that count every TCP connection they see, so "refused
// before any connection" is measured, not assumed.

interface Place {
  url: string;
  port: number;
  connections: () => number;
  requests: IncomingMessage[];
  bodies: unknown[];
  close(): Promise<void>;
}

const places: Place[] = [];
afterEach(async () => {
  await Promise.all(places.splice(0).map((p) => p.close()));
});

async function place(handler: (req: IncomingMessage, res: ServerResponse, body: any) => void): Promise<Place> {
  let connections = 0;
  const requests: IncomingMessage[] = [];
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      requests.push(req);
      const body = text ? JSON.parse(text) : undefined;
      bodies.push(body);
      handler(req, res, body);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const p: Place = {
    url: `http://127.0.0.1:${port}/`,
    port,
    connections: () => connections,
    requests,
    bodies,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  places.push(p);
  return p;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const door = () =>
  place((_req, res, body) =>
    json(res, 200, {
      jsonrpc: '2.0',
      id: body?.id ?? null,
      result: { task: { id: 'tsk_1', contextId: 'ctx_1', status: { state: 'TASK_STATE_SUBMITTED' } } },
    }),
  );

const message = { messageId: 'msg_1', role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] };

function client(allow: string[]) {
  const events: Record<string, unknown>[] = [];
  const c = createPeerClient({
    capsule: 'orch',
    sessionId: 'ses_abc',
    allow,
    trace: (e) => events.push(e),
    timeoutMs: 5000,
  });
  return { c, events };
}

/** A place that knows no 1.0 method; its card (when it has one) says `version`. */
const oldAgent = (version: string | undefined) =>
  place((req, res, body) => {
    if (req.method === 'GET') {
      if (!version) return json(res, 404, { error: 'no card' });
      return json(res, 200, {
        name: 'old',
        supportedInterfaces: [{ url: 'http://x', protocolBinding: 'JSONRPC', protocolVersion: version }],
      });
    }
    json(res, 200, {
      jsonrpc: '2.0',
      id: body?.id ?? null,
      error: { code: -32601, message: `Method not found: ${body?.method}` },
    });
  });

describe('peer protocol version', () => {
  it('a peer without a 1.0 method has its card read, and the error says what the card said', async () => {
    const noCard = await oldAgent(undefined);
    const err1 = await client([`localhost:${noCard.port}`])
      .c.sendMessage(noCard.url, { message })
      .catch((e) => e);
    expect(err1).toBeInstanceOf(PeerError);
    expect(err1.message).toMatch(/-32601 Method not found: SendMessage .*may speak only A2A 0\.3.*could not be read/);
    const says10 = await oldAgent('1.0');
    const err2 = await client([`localhost:${says10.port}`])
      .c.sendMessage(says10.url, { message })
      .catch((e) => e);
    expect(err2.message).toMatch(/-32601 .*card at .* says protocol version 1\.0, yet the method is missing/);
    expect(says10.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('a 0.3 card turns the call into message/send, and the answer into 1.0 shapes', async () => {
    const agent = await place((req, res, body) => {
      if (req.method === 'GET')
        return json(res, 200, {
          protocolVersion: '0.3.0',
          name: 'old',
          url: 'http://x',
          preferredTransport: 'JSONRPC',
        });
      if (body.method !== 'message/send')
        return json(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } });
      json(res, 200, {
        jsonrpc: '2.0',
        id: body.id,
        result: {
          kind: 'task',
          id: 't1',
          contextId: 'c1',
          status: {
            state: 'input-required',
            message: { kind: 'message', role: 'agent', messageId: 'q', parts: [{ kind: 'text', text: 'Which?' }] },
          },
        },
      });
    });
    const { c } = client([`localhost:${agent.port}`]);
    const out = await c.sendMessage(agent.url, { message, configuration: { returnImmediately: true } });
    expect(out.task).toMatchObject({
      id: 't1',
      status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { role: 'ROLE_AGENT', parts: [{ text: 'Which?' }] } },
    });
    expect(agent.bodies[2]).toMatchObject({
      method: 'message/send',
      params: {
        message: { kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
        configuration: { blocking: false },
      },
    });
  });
});

describe('peer client', () => {
  it('sends A2A 1.0 with the peer header and traceparent, and traces a2a_send', async () => {
    const worker = await door();
    const { c, events } = client([`localhost:${worker.port}`]);
    const tp = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const out = await c.sendMessage(
      worker.url,
      { message, configuration: { returnImmediately: true } },
      { traceparent: tp },
    );
    expect(out.task?.id).toBe('tsk_1');
    const req = worker.requests[0];
    expect(req.headers['a2a-version']).toBe('1.0');
    expect(req.headers[PEER_HEADER]).toBe('orch; session=ses_abc');
    expect(req.headers.traceparent).toBe(tp);
    expect(worker.bodies[0]).toMatchObject({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { message, configuration: { returnImmediately: true } },
    });
    expect(events).toEqual([
      {
        event_type: 'a2a_send',
        peer_url: worker.url,
        message_id: 'msg_1',
        task_id: 'tsk_1',
        peer_task_id: 'tsk_1',
        context_id: 'ctx_1',
        traceparent: tp,
      },
    ]);
  });

  it('refuses a place outside the allow list before any connection, and traces it', async () => {
    const worker = await door();
    const { c, events } = client([`localhost:${worker.port + 1}`, 'example.com']);
    const err = await c.sendMessage(worker.url, { message }).catch((e) => e);
    expect(err).toBeInstanceOf(PolicyRefusal);
    expect(err.message).toMatch(/^network_refused: /);
    expect(worker.connections()).toBe(0);
    expect(events).toEqual([
      { event_type: 'network_refused', url: worker.url, reason: expect.stringContaining('127.0.0.1') },
    ]);
    // An empty allow list refuses everything, card fetches included.
    const none = client([]);
    await expect(none.c.fetchCard(worker.url)).rejects.toBeInstanceOf(PolicyRefusal);
    expect(worker.connections()).toBe(0);
  });

  it('checks every redirect hop: a hop out of the allow list never connects', async () => {
    const outside = await door();
    const redirector = await place((_req, res) => {
      res.writeHead(307, { location: outside.url });
      res.end();
    });
    const { c, events } = client([`127.0.0.1:${redirector.port}`]);
    const err = await c.getTask(redirector.url, 'tsk_1').catch((e) => e);
    expect(err).toBeInstanceOf(PolicyRefusal);
    expect(redirector.connections()).toBe(1);
    expect(outside.connections()).toBe(0);
    expect(events).toEqual([{ event_type: 'network_refused', url: outside.url, reason: expect.any(String) }]);
  });

  it('follows a 307 inside the allow list with the same method and body', async () => {
    const target = await door();
    const redirector = await place((_req, res) => {
      res.writeHead(307, { location: `http://localhost:${target.port}/a2a` });
      res.end();
    });
    const { c } = client([`127.0.0.1:${redirector.port}`, `http://127.0.0.1:${target.port}/a2a`]);
    const out = await c.sendMessage(redirector.url, { message });
    expect(out.task?.id).toBe('tsk_1');
    expect(target.bodies[0]).toMatchObject({ method: 'SendMessage' });
    expect(target.requests[0].url).toBe('/a2a');
  });

  it('turns a 403 peer_not_accepted into that reason', async () => {
    const closed = await place((_req, res, body) =>
      json(res, 403, {
        jsonrpc: '2.0',
        id: body.id,
        error: { code: -32600, message: 'peer_not_accepted: this capsule takes no peer tasks' },
      }),
    );
    const { c } = client([`localhost:${closed.port}`]);
    const err = await c.sendMessage(closed.url, { message }).catch((e) => e);
    expect(err).toBeInstanceOf(PeerError);
    expect(err.reason).toBe('peer_not_accepted');
    expect(err.message).toMatch(/^peer_not_accepted: /);
  });

  it('reports a peer that is down as connection refused, and JSON-RPC errors with their code', async () => {
    const gone = await door();
    await gone.close();
    const { c } = client([`localhost:${gone.port}`]);
    const err = await c.getTask(gone.url, 'tsk_1').catch((e) => e);
    expect(err).toBeInstanceOf(PeerError);
    expect(err.reason).toBe('connection_refused');
    expect(err.message).toContain('connection refused');

    const strict = await place((_req, res, body) =>
      json(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'Task not found' } }),
    );
    const other = client([`localhost:${strict.port}`]);
    const notFound = await other.c.cancelTask(strict.url, 'tsk_x').catch((e) => e);
    expect(notFound.reason).toBe('rpc_error');
    expect(notFound.detail.code).toBe(-32001);
  });

  it('reads a peer answer up to a bound: a peer that answers without end fails that call, not the process', async () => {
    // A valid JSON-RPC answer whose artifact is 20 MiB, streamed without a length.
    const huge = await place((_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        `{"jsonrpc":"2.0","id":${body.id},"result":{"id":"tsk_1","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"pad":"`,
      );
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 20; i++) res.write(chunk);
      res.end('"}}}');
    });
    const { c } = client([`localhost:${huge.port}`]);
    const err = await c.getTask(huge.url, 'tsk_1').catch((e) => e);
    expect(err).toBeInstanceOf(PeerError);
    expect(err.reason).toBe('bad_response');
    expect(err.message).toContain('more than');
  });
});
