import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { waitFor } from '../runtime/testing';
import { indexEntriesOf } from './cards';
import { startTestGateway, type TestGateway } from './testing';

// The gateway end to end: a rehearsal capsule exposed with a token, called by the @a2a-js/sdk
// 1.3.0 client and by plain fetch, with every refusal rule.

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({ inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } });
  token = t.gateway.exposures.enable(t.name).token;
});
afterAll(() => t.dispose());

const message = (text: string) => ({
  messageId: `m-${text}-${Math.random()}`,
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const sendParams = (text: string, returnImmediately = false) => ({
  tenant: '',
  message: message(text),
  configuration: {
    acceptedOutputModes: [],
    historyLength: undefined,
    returnImmediately,
    taskPushNotificationConfig: undefined,
  },
  metadata: undefined,
});

function sdkClient(tok: string) {
  const f = t.authFetch(tok);
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: f })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: f }),
    }),
  );
}

describe('discovery and calls with the @a2a-js/sdk 1.3.0 client', () => {
  let client: Client;
  it('finds the capsule through the index card and builds a client from its card', async () => {
    const index = (await (await t.authFetch(token)(`${t.gateway.url}/.well-known/agent-card.json`)).json()) as any;
    expect('capsules' in index).toBe(false);
    const listed = indexEntriesOf(index);
    expect(listed).toEqual([
      expect.objectContaining({ name: t.name, card: t.gateway.urlsOf(t.name).card, url: t.gateway.urlsOf(t.name).url }),
    ]);
    client = await sdkClient(token).createFromUrl(listed[0].card, '');
    const card = (await (await t.authFetch(token)(listed[0].card)).json()) as any;
    expect(card.supportedInterfaces[0].url).toBe(t.gateway.urlsOf(t.name).url);
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: expect.objectContaining({ scheme: 'Bearer' }) },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    expect(JSON.stringify(card)).not.toContain('murmur.StopSession');
  });

  it('sends, gets and cancels through the gateway', async () => {
    const done = (await client.sendMessage(sendParams('hello gateway'))) as any;
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'Acknowledged: “hello gateway”' });
    const got = (await client.getTask({ tenant: '', id: done.id, historyLength: 0 })) as any;
    expect(got.status.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const hanging = (await client.sendMessage(sendParams('hang please', true))) as any;
    const s = t.capsule.session;
    await waitFor(s, () => s.taskState(hanging.id) === 'TASK_STATE_WORKING');
    const canceled = (await client.cancelTask({ tenant: '', id: hanging.id, metadata: undefined })) as any;
    expect(canceled.status.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('streams through the gateway', async () => {
    const events: any[] = [];
    for await (const e of client.sendMessageStream(sendParams('stream me'))) events.push(e);
    expect(events.length).toBeGreaterThan(1);
    const last = JSON.stringify(events.at(-1));
    expect(last).toContain(String(TaskState.TASK_STATE_COMPLETED));
  });

  it('logs every call with the token id and never the token', async () => {
    const entries = t.gateway.access.recent();
    expect(entries.some((e) => e.method === 'SendMessage' && e.outcome === 'ok' && e.tokenId?.startsWith('tok_'))).toBe(
      true,
    );
    expect(entries.some((e) => e.method === 'SendStreamingMessage' && e.outcome === 'stream')).toBe(true);
    await t.gateway.access.flush();
    const file = readFileSync(join(t.dataDir, 'gateway-access.jsonl'), 'utf8');
    expect(file).toContain('"method":"CancelTask"');
    expect(file).not.toContain(token);
    expect(readFileSync(join(t.dataDir, 'exposures.json'), 'utf8')).not.toContain(token);
  });
});

describe('card caching', () => {
  it('index and capsule cards carry an ETag and a short private max-age, and answer 304 when unchanged', async () => {
    const f = t.authFetch(token);
    for (const url of [`${t.gateway.url}/.well-known/agent-card.json`, t.gateway.urlsOf(t.name).card]) {
      const first = await f(url);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(first.headers.get('cache-control')).toBe('private, max-age=30');
      expect(first.headers.get('vary')).toMatch(/authorization/i);
      const again = await f(url, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect((await f(url, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    }
    // a 304 is still refused without the token
    expect((await fetch(t.gateway.urlsOf(t.name).card, { headers: { 'if-none-match': '*' } })).status).toBe(401);
  });
});

describe('refusals', () => {
  it('401 without a token and with a wrong one, with WWW-Authenticate: Bearer', async () => {
    const refusedBefore = t.gateway.access.recent().filter((e) => e.outcome === 'unauthorized').length;
    const none = await t.rpc(undefined, 'GetTask', { id: 'x' });
    expect(t.gateway.access.recent().filter((e) => e.outcome === 'unauthorized').length).toBe(refusedBefore + 1); // logged once, refused before the body
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await t.rpc(`${token}x`, 'GetTask', { id: 'x' });
    expect(wrong.status).toBe(401);
    // The access log says which: no token above, a wrong one here.
    expect(t.gateway.access.recent().at(-1)?.outcome).toBe('unauthorized: wrong token');
    const card = await fetch(t.gateway.urlsOf(t.name).card);
    expect(card.status).toBe(401);
  });

  it('logs "wrong token" exactly when a credential was given, and plain "unauthorized" when none was', async () => {
    const outcomeOf = async (authorization: string | undefined) => {
      const r = await t.rpc(undefined, 'GetTask', { id: 'x' }, authorization === undefined ? {} : { authorization });
      expect(r.status).toBe(401);
      return { outcome: t.gateway.access.recent().at(-1)?.outcome, challenge: r.headers.get('www-authenticate') };
    };
    const none = { outcome: 'unauthorized', challenge: 'Bearer realm="capsule-gateway"' };
    const wrong = { outcome: 'unauthorized: wrong token', challenge: expect.stringContaining('invalid_token') };
    // No token: no header, an empty one, the scheme alone.
    expect(await outcomeOf(undefined)).toEqual(none);
    expect(await outcomeOf('')).toEqual(none);
    expect(await outcomeOf('Bearer')).toEqual(none);
    expect(await outcomeOf('Bearer   ')).toEqual(none);
    // A token that opens nothing: mistyped, of another scheme, revoked.
    expect(await outcomeOf(`Bearer ${token}x`)).toEqual(wrong);
    expect(await outcomeOf(`bearer ${token.slice(1)}`)).toEqual(wrong);
    expect(await outcomeOf(`Basic ${Buffer.from('a:b').toString('base64')}`)).toEqual(wrong);
    expect(await outcomeOf(token)).toEqual(wrong);
  });

  it('logs which token a refused foreign-Origin call carried', async () => {
    await t.rpc(token, 'GetTask', { id: 'x' }, { origin: 'https://evil.example' });
    const entry = t.gateway.access.recent().at(-1);
    expect(entry).toMatchObject({ outcome: 'forbidden_origin', status: 403 });
    expect(entry?.tokenId).toBe(t.gateway.exposures.list().find((e) => e.capsule === t.name)?.tokenId);
  });

  it('403 for a browser call from a foreign Origin, even with the token', async () => {
    const r = await t.rpc(token, 'GetTask', { id: 'x' }, { origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    const own = await t.rpc(token, 'GetTask', { id: 'x' }, { origin: t.gateway.url });
    expect(own.status).toBe(200);
  });

  it('404 is the same for an unexposed capsule and a missing one', async () => {
    const other = t.gateway.exposures.enable('not-running-capsule').token;
    const get = (tok: string, name: string) =>
      fetch(`${t.gateway.url}/a2a/capsules/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
        body: '{}',
      });
    const unexposed = await get(other, t.name); // exists and runs, but this token does not open it
    const missing = await get(token, 'no-such-capsule');
    const stopped = await get(other, 'not-running-capsule');
    expect([unexposed.status, missing.status, stopped.status]).toEqual([404, 404, 404]);
    const bodies = await Promise.all([unexposed.text(), missing.text(), stopped.text()]);
    expect(new Set(bodies).size).toBe(1);
    t.gateway.exposures.revoke('not-running-capsule');
  });

  it('answers GetExtendedAgentCard with the gateway card, never the door one', async () => {
    const r = await t.rpc(token, 'GetExtendedAgentCard', {});
    expect(r.body.result.supportedInterfaces[0].url).toBe(t.gateway.urlsOf(t.name).url);
    expect(r.body.result.signatures).toHaveLength(1);
    expect(JSON.stringify(r.body)).not.toContain(t.capsule.session.url);
  });

  it('refuses the door extension methods', async () => {
    const r = await t.rpc(token, 'murmur.StopSession', {});
    expect(r.body.error.code).toBe(-32601);
  });
});

describe('revocation', () => {
  it('takes effect at once, open streams included', async () => {
    const t2 = await startTestGateway({
      inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } },
    });
    try {
      const tok = t2.gateway.exposures.enable(t2.name).token;
      const res = await fetch(t2.gateway.urlsOf(t2.name).url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          authorization: `Bearer ${tok}`,
          accept: 'text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendStreamingMessage',
          params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hang on' }] } },
        }),
      });
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain('"task"');
      const logged = new Promise((resolve) => t2.gateway.onAccess((e) => e.outcome === 'revoked' && resolve(e)));
      t2.gateway.exposures.revoke(t2.name);
      let ended = false;
      for (;;) {
        const r = await reader.read().catch(() => ({ done: true }));
        if (r.done) {
          ended = true;
          break;
        }
      }
      expect(ended).toBe(true);
      expect((await t2.rpc(tok, 'GetTask', { id: 'x' })).status).toBe(401);
      expect(await logged).toMatchObject({ method: 'SendStreamingMessage', outcome: 'revoked' });
    } finally {
      await t2.dispose();
    }
  });

  it('rotation: the old token stops working and the new one works', async () => {
    const t3 = await startTestGateway();
    try {
      const old = t3.gateway.exposures.enable(t3.name).token;
      expect((await t3.rpc(old, 'GetTask', { id: 'x' })).status).toBe(200);
      const fresh = t3.gateway.exposures.rotate(t3.name).token;
      expect((await t3.rpc(old, 'GetTask', { id: 'x' })).status).toBe(401);
      expect((await t3.rpc(fresh, 'GetTask', { id: 'x' })).body.error.code).toBe(-32001);
    } finally {
      await t3.dispose();
    }
  });
});
