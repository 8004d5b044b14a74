import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentCardOf, busyBody } from '../door';
import { startTestSession, waitFor, type TestSession } from '../runtime/testing';
import { createGateway, type Gateway } from './server';
import { sessionCapsule } from './session-capsule';

// A session of the gateway's own process is called in process (in-process.ts); a door of another
// process over HTTP. Both must answer byte for byte what the session's door answers: the same
// requests go to the door itself, to a gateway calling the session in process, and to one that
// reaches the same session over HTTP (as it would another process's door; the 0.3 answers are
// compared with its, since the door does not speak 0.3).

let ts: TestSession;
const gateways: { gateway: Gateway; token: string; dir: string }[] = [];
let local: (typeof gateways)[number];
let remote: (typeof gateways)[number];

async function gatewayFor(inProcess: boolean, maxCallsPerSession?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-gateway-'));
  const s = ts.session;
  const gateway = await createGateway({
    dataDir: dir,
    port: 0,
    resolveCapsule: (n) =>
      n !== s.manifest.name
        ? undefined
        : inProcess
          ? sessionCapsule(s)
          : { url: s.url, card: agentCardOf(s), accepts: s.manifest.accepts },
    ...(maxCallsPerSession ? { maxCallsPerSession } : {}),
  });
  const g = { gateway, token: gateway.exposures.enable(s.manifest.name, { compat03: true }).token, dir };
  gateways.push(g);
  return g;
}

beforeAll(async () => {
  ts = await startTestSession({ inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } });
  local = await gatewayFor(true);
  remote = await gatewayFor(false);
});
afterAll(async () => {
  for (const g of gateways) {
    await g.gateway.close();
    rmSync(g.dir, { recursive: true, force: true });
  }
  await ts.dispose();
});

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

const V1 = { 'content-type': 'application/json', 'a2a-version': '1.0' };

/** One POST: to the door itself, or to a gateway with its token. */
async function post(to: 'door' | typeof local, body: string, headers: Record<string, string> = V1): Promise<Answer> {
  const url = to === 'door' ? ts.session.url : to.gateway.urlsOf(ts.session.manifest.name).url;
  const res = await fetch(url, {
    method: 'POST',
    headers: to === 'door' ? headers : { ...headers, authorization: `Bearer ${to.token}` },
    body,
  });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

const rpc = (method: string, params?: unknown, id: unknown = 7) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });

/** What must differ between two answers about two tasks: their ids and times, numbered as they appear. */
function normalised(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(
    /\b(?:tsk|ctx|msg|art)_[0-9a-z_]+|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z|m-(?:door|gw)-\d+/g,
    (v) => {
      if (!seen.has(v)) seen.set(v, `<${seen.size}>`);
      return seen.get(v)!;
    },
  );
}

let nextMessage = 1;
const message = (who: 'door' | 'gw', text: string) => ({
  messageId: `m-${who}-${nextMessage++}`,
  role: 'ROLE_USER',
  parts: [{ text }],
});

describe('a gateway calling a session of its own process', () => {
  it('answers the same bytes as the door, for answers and refusals alike', async () => {
    // Answers about one task, asked of both (nothing changes it in between).
    const done = JSON.parse((await post('door', rpc('SendMessage', { message: message('door', 'first') }))).text).result
      .task;
    const same: [string, Record<string, string>?][] = [
      [rpc('GetTask', { id: done.id })],
      [rpc('GetTask', { id: done.id, historyLength: 1 }, 'abc')],
      [rpc('GetTask', { id: 'tsk_nobody' })],
      [rpc('CancelTask', { id: done.id })], // ended already: -32002 with its state
      [rpc('ListTasks', {})],
      [rpc('ListTasks', { pageSize: 1 })],
      [rpc('GetTask', { id: 5 })], // bad params
      [rpc('GetTask', [1])], // params not an object
      [rpc('GetTask', { id: done.id, metadata: JSON.parse('['.repeat(80) + ']'.repeat(80)) })], // nested too deep
      [rpc('NoSuchMethod', {})],
      [rpc('toString', {})],
      [rpc('SendMessage', { message: { role: 'ROLE_USER' } })],
      [rpc('GetTask', { id: done.id }), { 'content-type': 'application/json', 'a2a-version': '0.3' }],
      [rpc('GetTask', { id: done.id }), { 'content-type': 'application/json' }],
      [rpc('GetTask', { id: done.id }), { 'content-type': 'application/json', 'a2a-version': ' 1.0.2 ' }],
      [rpc('GetTask', { id: done.id }), { 'content-type': 'text/plain', 'a2a-version': '1.0' }],
      [rpc('GetTask', { id: done.id }), { 'content-type': 'application/a2a+json', 'a2a-version': '1.0' }],
      ['{"jsonrpc":"2.0","id":1,"method":'],
      ['[1,2]'],
      ['{"jsonrpc":"1.0","id":1,"method":"GetTask"}'],
      ['{"jsonrpc":"2.0","id":{},"method":"GetTask","params":{"id":"x"}}'],
    ];
    for (const [body, headers] of same) {
      const door = await post('door', body, headers);
      expect({ body, ...(await post(local, body, headers)) }).toEqual({ body, ...door });
      expect({ body, ...(await post(remote, body, headers)) }).toEqual({ body, ...door });
    }

    // A blocking send, and a cancel of a task that works: two tasks, compared but for ids and times.
    const sent = [
      await post('door', rpc('SendMessage', { message: message('door', 'hello') })),
      await post(local, rpc('SendMessage', { message: message('gw', 'hello') })),
    ];
    expect(JSON.parse(sent[1].text).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect({ ...sent[1], text: normalised(sent[1].text) }).toEqual({ ...sent[0], text: normalised(sent[0].text) });
    const canceled: Answer[] = [];
    for (const to of ['door', local] as const) {
      const started = JSON.parse(
        (
          await post(
            to,
            rpc('SendMessage', {
              message: message(to === 'door' ? 'door' : 'gw', 'hang'),
              configuration: { returnImmediately: true },
            }),
          )
        ).text,
      ).result.task;
      await waitFor(ts.session, () => ts.session.taskState(started.id) === 'TASK_STATE_WORKING');
      canceled.push(await post(to, rpc('CancelTask', { id: started.id })));
    }
    expect(JSON.parse(canceled[1].text).result.status.state).toBe('TASK_STATE_CANCELED');
    expect({ ...canceled[1], text: normalised(canceled[1].text) }).toEqual({
      ...canceled[0],
      text: normalised(canceled[0].text),
    });
  });

  it('answers 0.3 calls as when it reached the door over HTTP', async () => {
    const V03 = { 'content-type': 'application/json' };
    const msg03 = (who: 'door' | 'gw') => ({
      kind: 'message',
      messageId: `m-${who}-${nextMessage++}`,
      role: 'user',
      parts: [{ kind: 'text', text: 'hello 0.3' }],
    });
    const sent = [
      await post(remote, rpc('message/send', { message: msg03('door'), configuration: { blocking: true } }), V03),
      await post(local, rpc('message/send', { message: msg03('gw'), configuration: { blocking: true } }), V03),
    ];
    expect(JSON.parse(sent[1].text).result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect({ ...sent[1], text: normalised(sent[1].text) }).toEqual({ ...sent[0], text: normalised(sent[0].text) });
    const id = JSON.parse(sent[0].text).result.id;
    for (const body of [
      rpc('tasks/get', { id }),
      rpc('tasks/get', { id, historyLength: 0 }),
      rpc('tasks/get', { id: 'tsk_nobody' }),
      rpc('tasks/cancel', { id }),
      rpc('tasks/get', {}),
    ]) {
      expect({ body, ...(await post(local, body, V03)) }).toEqual({ body, ...(await post(remote, body, V03)) });
    }
  });

  it('does not reach the door over HTTP for a call that does not stream, and hands it the traceparent', async () => {
    const fetches = vi.spyOn(globalThis, 'fetch');
    const toDoor = () => fetches.mock.calls.filter(([url]) => String(url).startsWith(ts.session.url)).length;
    try {
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const sent = await post(local, rpc('SendMessage', { message: message('gw', 'traced') }), { ...V1, traceparent });
      const id = JSON.parse(sent.text).result.task.id;
      await post(local, rpc('GetTask', { id }));
      await post(local, rpc('ListTasks', {}));
      await post(local, rpc('tasks/get', { id }), { 'content-type': 'application/json' });
      expect(toDoor()).toBe(0);
      ts.session.trace.flushSync();
      const received = readFileSync(ts.session.trace.path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((l) => l.event_type === 'a2a_task_received' && l.text === 'traced');
      expect(received).toMatchObject({ traceparent });
      // The same calls through the gateway that forwards do reach the door: the count is real.
      await post(remote, rpc('GetTask', { id }));
      expect(toDoor()).toBe(1);
    } finally {
      fetches.mockRestore();
    }
  });

  it('still streams through the door', async () => {
    const res = await fetch(local.gateway.urlsOf(ts.session.manifest.name).url, {
      method: 'POST',
      headers: { ...V1, accept: 'text/event-stream', authorization: `Bearer ${local.token}` },
      body: rpc('SendStreamingMessage', { message: message('gw', 'stream me') }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(await res.text()).toContain('TASK_STATE_COMPLETED');
    const log = local.gateway.access.recent();
    expect(log.some((e) => e.method === 'SendStreamingMessage' && e.outcome === 'stream')).toBe(true);
    expect(log.some((e) => e.method === 'GetTask' && e.outcome === 'error -32001')).toBe(true);
    expect(log.some((e) => e.method === 'SendMessage' && e.outcome === 'ok')).toBe(true);
  });

  it("meets its door's connection cap: a call past it is turned away as the door turned it away", async () => {
    const capped = await gatewayFor(true, 1);
    const hanging = post(
      capped,
      rpc('SendMessage', { message: { ...message('gw', 'hang'), messageId: 'm-gw-capped' } }),
    );
    await waitFor(ts.session, () => ts.session.listTasks().some((t) => t.status.state === 'TASK_STATE_WORKING'));
    const busy = await post(capped, rpc('GetTask', { id: 'tsk_nobody' }));
    expect(busy).toEqual({ status: 503, contentType: 'application/json; charset=utf-8', text: busyBody(1) });
    const working = ts.session.listTasks().find((t) => t.status.state === 'TASK_STATE_WORKING')!;
    await post('door', rpc('CancelTask', { id: working.id }));
    expect(JSON.parse((await hanging).text).result.task.status.state).toBe('TASK_STATE_CANCELED');
    expect(JSON.parse((await post(capped, rpc('GetTask', { id: working.id }))).text).result.id).toBe(working.id);
    const log = capped.gateway.access.recent();
    expect(log.some((e) => e.method === 'GetTask' && e.status === 503 && e.outcome === 'error -32011')).toBe(true);
  });
});
