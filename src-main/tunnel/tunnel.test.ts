import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Role, TaskState, verifyAgentCardSignature } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { editTunnels, readTunnels, TUNNEL_PROOF_HEADER } from '../gateway';
import { startTestGateway, type TestGateway } from '../gateway/testing';
import { openTunnel, type GuardEntry, type Tunnel } from './index';
import { standInProvider, type StandIn } from './testing';

// The tunnel's guard end to end, through a stand-in for the engine's edge (a loopback reverse
// proxy that adds X-Forwarded-Host): no link is refused before the gateway; the link is exchanged
// once for a __Host- cookie; with it and the bearer the card (naming the public origin, signed)
// and SendMessage work, also from the @a2a-js/sdk client; tampered, revoked and stopped links fail.

let t: TestGateway;
let token: string;
let edge: StandIn;
let tunnel: Tunnel;
const seen: GuardEntry[] = [];

beforeAll(async () => {
  t = await startTestGateway();
  token = t.gateway.exposures.enable(t.name).token;
  edge = standInProvider();
  tunnel = await openTunnel({
    dataDir: t.dataDir,
    gatewayUrl: t.gateway.url,
    provider: edge.provider,
    env: {},
    onAccess: (e) => seen.push(e),
  });
});
afterAll(async () => {
  await tunnel?.close();
  await t.dispose();
});

const pub = () => `https://${edge.publicHost}`;
/** What a caller on the internet does: a URL on the public origin is reached through the edge. */
const viaEdge = (url: string) => url.replace(pub(), edge.edge());
const cardPath = () => `/a2a/capsules/${t.name}/.well-known/agent-card.json`;

async function exchange(
  link: string,
): Promise<{ status: number; location: string | null; setCookie: string | null; cookie: string }> {
  const res = await fetch(viaEdge(link), { redirect: 'manual' });
  const setCookie = res.headers.get('set-cookie');
  return {
    status: res.status,
    location: res.headers.get('location'),
    setCookie,
    cookie: setCookie?.split(';')[0] ?? '',
  };
}

const send = (cookie: string | undefined, extra: Record<string, string> = {}) =>
  fetch(`${edge.edge()}/a2a/capsules/${t.name}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: `Bearer ${token}`,
      ...(cookie ? { cookie } : {}),
      ...extra,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: `m${Math.random()}`, role: 'ROLE_USER', parts: [{ text: 'hello from afar' }] } },
    }),
  });

describe('a tunnel in front of the gateway', () => {
  it('refuses every request without the link, before the gateway sees it', async () => {
    const before = t.gateway.access.recent().length;
    const card = await fetch(`${edge.edge()}${cardPath()}`, { headers: { authorization: `Bearer ${token}` } });
    expect(card.status).toBe(401);
    expect(((await card.json()) as any).error).toBe('tunnel_no_link');
    expect((await send(undefined)).status).toBe(401);
    // A made-up cookie is no better.
    expect((await send('__Host-capsule_tunnel=abc.def')).status).toBe(401);
    expect(t.gateway.access.recent().length).toBe(before);
    expect(seen.filter((e) => e.outcome === 'no_link' || e.outcome === 'bad_link').length).toBeGreaterThanOrEqual(3);
  });

  it('exchanges the link once for a __Host- cookie (303), then card and SendMessage work with the bearer', async () => {
    expect(tunnel.link.startsWith(`${pub()}/?t=`)).toBe(true);
    const x = await exchange(tunnel.link);
    expect(x.status).toBe(303);
    expect(x.location).toBe('/');
    expect(x.setCookie).toMatch(/^__Host-capsule_tunnel=[^;]+; Path=\/; Max-Age=\d+; Secure; HttpOnly; SameSite=Lax$/);

    const res = await fetch(`${edge.edge()}${cardPath()}`, {
      headers: { authorization: `Bearer ${token}`, cookie: x.cookie },
    });
    expect(res.status).toBe(200);
    const card = (await res.json()) as any;
    expect(card.supportedInterfaces[0].url).toBe(`${pub()}/a2a/capsules/${t.name}/`);
    // The signature verifies with the SDK, its keys fetched at the public origin (through the tunnel).
    const jwksUrl = `${pub()}/.well-known/jwks.json`;
    const jwks = (await (await fetch(viaEdge(jwksUrl), { headers: { cookie: x.cookie } })).json()) as any;
    const verify = verifyAgentCardSignature(async (kid) => jwks.keys.find((k: { kid: string }) => k.kid === kid));
    await expect(verify(card)).resolves.toBeUndefined();
    expect(card.signatures[0].protected).toBeTruthy();

    const sent = await send(x.cookie);
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as any).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('serves the @a2a-js/sdk client, which takes the card URL as it is', async () => {
    const { cookie } = await exchange(tunnel.link);
    const f: typeof fetch = (input, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${token}`);
      headers.set('cookie', cookie);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return fetch(viaEdge(url), { ...init, headers });
    };
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: f })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: f }),
    });
    const client = await new ClientFactory(options).createFromUrl(`${pub()}${cardPath()}`, '');
    const done = (await client.sendMessage({
      tenant: '',
      message: {
        messageId: 'sdk-1',
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: 'via sdk' }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    })) as { status: { state: TaskState } };
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("believes the forwarded host only from the tunnel's guard, never from a caller's header", async () => {
    const { cookie } = await exchange(tunnel.link);
    const res = await fetch(`${edge.edge()}${cardPath()}`, {
      headers: {
        authorization: `Bearer ${token}`,
        cookie,
        'x-forwarded-host': 'evil.example',
        forwarded: 'host=evil.example',
      },
    });
    expect(((await res.json()) as any).supportedInterfaces[0].url).toBe(`${pub()}/a2a/capsules/${t.name}/`);
    // Straight to the gateway, a caller's X-Forwarded-Host or a guessed proof changes nothing.
    for (const headers of [
      { 'x-forwarded-host': 'evil.example' },
      { 'x-forwarded-host': 'evil.example', [TUNNEL_PROOF_HEADER]: 'guess' },
    ]) {
      const direct = await fetch(`${t.gateway.url}${cardPath()}`, {
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
      expect(((await direct.json()) as any).supportedInterfaces[0].url).toBe(
        `${t.gateway.url}/a2a/capsules/${t.name}/`,
      );
    }
  });

  it('refuses a tampered link and a link from another tunnel', async () => {
    const dot = tunnel.link.lastIndexOf('.');
    const sig = tunnel.link.slice(dot + 1);
    const flipped = `${tunnel.link.slice(0, dot)}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expect((await exchange(flipped)).status).toBe(401);
    const other = standInProvider('other.example.test');
    const second = await openTunnel({
      dataDir: t.dataDir,
      gatewayUrl: t.gateway.url,
      provider: other.provider,
      env: {},
    });
    try {
      const foreign = second.link.replace(`https://${other.publicHost}`, pub());
      const res = await fetch(viaEdge(foreign), { redirect: 'manual' });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error).toBe('tunnel_bad_link');
    } finally {
      await second.close();
    }
  });

  it('keeps link, cookie and proof out of every file', async () => {
    const { cookie } = await exchange(tunnel.link);
    await send(cookie);
    const secrets = [tunnel.link.split('?t=')[1], cookie.split('=')[1]];
    const record = readTunnels(t.dataDir).find((r) => r.id === tunnel.id)!;
    expect(record).toMatchObject({ provider: 'stand-in', publicUrl: pub(), pid: process.pid });
    for (const file of readdirSync(t.dataDir)) {
      const text = readFileSync(join(t.dataDir, file), 'utf8');
      for (const s of secrets) expect(text).not.toContain(s);
    }
    expect(JSON.stringify(seen)).not.toContain(secrets[0]);
    expect(JSON.stringify(seen)).not.toContain(secrets[1]);
  });

  it('revoked from another process: the link and its cookies are refused at once', async () => {
    const { cookie } = await exchange(tunnel.link);
    expect((await send(cookie)).status).toBe(200);
    editTunnels(t.dataDir, (rs) =>
      rs.map((r) => (r.id === tunnel.id ? { ...r, revokedAt: new Date().toISOString() } : r)),
    );
    const refused = await send(cookie);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as any).error).toBe('tunnel_revoked');
    expect((await exchange(tunnel.link)).status).toBe(401);
  });

  it('a stop asked from another process tears the tunnel down and removes its record', async () => {
    editTunnels(t.dataDir, (rs) =>
      rs.map((r) => (r.id === tunnel.id ? { ...r, stopRequestedAt: new Date().toISOString() } : r)),
    );
    await expect(tunnel.closed).resolves.toBe('stopped');
    expect(readTunnels(t.dataDir).some((r) => r.id === tunnel.id)).toBe(false);
    await expect(fetch(`${edge.edge()}/`)).rejects.toThrow();
  });
});

describe('a tunnel that cannot open', () => {
  it('exposes nothing and leaves no record when its provider fails', async () => {
    const g = await startTestGateway();
    try {
      const failing = {
        name: 'broken',
        open: vi.fn(async (_target: string): Promise<never> => Promise.reject(new Error('no network'))),
      };
      await expect(
        openTunnel({ dataDir: g.dataDir, gatewayUrl: g.gateway.url, provider: failing, env: {} }),
      ).rejects.toThrow('no network');
      const guardUrl = failing.open.mock.calls[0][0];
      await expect(fetch(guardUrl)).rejects.toThrow();
      expect(readTunnels(g.dataDir)).toEqual([]);
    } finally {
      await g.dispose();
    }
  });

  it('ends at its expiry', async () => {
    const g = await startTestGateway();
    try {
      const s = standInProvider();
      const short = await openTunnel({
        dataDir: g.dataDir,
        gatewayUrl: g.gateway.url,
        provider: s.provider,
        env: {},
        ttlMs: 300,
      });
      await expect(short.closed).resolves.toBe('expired');
      expect(readTunnels(g.dataDir)).toEqual([]);
    } finally {
      await g.dispose();
    }
  });
});
