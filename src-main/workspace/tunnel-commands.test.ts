import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../tunnel';
import { standInProvider } from '../tunnel/testing';
import { createTestStudio, type TestStudio } from './test-studio';

// Reach from anywhere through the Studio core: tunnel.create opens a tunnel in front of the
// Studio's gateway and answers the link once; the list and events never carry it; a call through
// the tunnel shows up live; revoke and stop take effect; a provider that cannot start says why.

const edge = standInProvider('studio.example.test');
let t: TestStudio;
beforeAll(async () => {
  t = await createTestStudio({
    ports: {
      tunnelProvider: (name) =>
        name === 'ngrok'
          ? {
              name: 'ngrok',
              open: async () =>
                Promise.reject(
                  new ProviderError(
                    'ngrok needs an authtoken: set NGROK_AUTHTOKEN (a secret in the Studio, or in your shell)',
                  ),
                ),
            }
          : edge.provider,
    },
  });
  await t.core.invoke('capsule.launch', { id: 'writer' });
});
afterAll(() => t.dispose());

describe('tunnel commands', () => {
  it('opens a tunnel to an exposed capsule; the link is in the answer only; calls show up live', async () => {
    const { token } = await t.core.invoke('expose.enable', { capsuleId: 'writer' });
    const created = await t.core.invoke('tunnel.create', { ttl: '1h' });
    expect(created.tunnel).toMatchObject({
      provider: 'stand-in',
      publicUrl: 'https://studio.example.test',
      state: 'open',
      calls: 0,
    });
    expect(created.link).toMatch(/^https:\/\/studio\.example\.test\/\?t=/);
    const listed = await t.core.invoke('tunnel.list', {});
    expect(listed.tunnels).toEqual([expect.objectContaining({ id: created.tunnel.id })]);
    expect(JSON.stringify(listed)).not.toContain(created.link.split('?t=')[1]);

    const x = await fetch(created.link.replace('https://studio.example.test', edge.edge()), { redirect: 'manual' });
    const cookie = x.headers.get('set-cookie')!.split(';')[0];
    const card = await fetch(`${edge.edge()}/a2a/capsules/writer/.well-known/agent-card.json`, {
      headers: { cookie, authorization: `Bearer ${token}` },
    });
    expect(((await card.json()) as any).supportedInterfaces[0].url).toBe(
      'https://studio.example.test/a2a/capsules/writer/',
    );
    const accessed = t.events.filter((e) => e.event === 'tunnel.accessed').map((e) => (e.payload as any).entry.outcome);
    expect(accessed).toEqual(['link_exchanged', 'forwarded']);
    expect(JSON.stringify(t.events)).not.toContain(created.link.split('?t=')[1]);
    expect(JSON.stringify(t.events)).not.toContain(cookie.split('=')[1]);
    expect((await t.core.invoke('tunnel.list', {})).tunnels[0].calls).toBe(1);

    await t.core.invoke('tunnel.revoke', { id: created.tunnel.id });
    expect((await t.core.invoke('tunnel.list', {})).tunnels[0].state).toBe('revoked');
    const refused = await fetch(`${edge.edge()}/a2a/capsules/writer/.well-known/agent-card.json`, {
      headers: { cookie, authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(401);

    const gone = t.next('tunnel.changed', (p: any) => p.tunnels.length === 0);
    await t.core.invoke('tunnel.stop', { id: created.tunnel.id });
    await gone;
    expect((await t.core.invoke('tunnel.list', {})).tunnels).toEqual([]);
  });

  it('a provider that cannot start: one line saying why, and nothing exposed', async () => {
    await expect(t.core.invoke('tunnel.create', { provider: 'ngrok' })).rejects.toThrow(
      'The tunnel could not open, nothing is exposed: ngrok needs an authtoken: set NGROK_AUTHTOKEN',
    );
    expect((await t.core.invoke('tunnel.list', {})).tunnels).toEqual([]);
  });

  it('refuses what is not a tunnel id or a known duration', async () => {
    await expect(t.core.invoke('tunnel.stop', { id: '../../etc' } as never)).rejects.toThrow();
    await expect(t.core.invoke('tunnel.create', { ttl: '100y' } as never)).rejects.toThrow();
    await expect(t.core.invoke('tunnel.revoke', { id: 'tun_0123456789ab' })).rejects.toThrow(
      'no tunnel tun_0123456789ab in this Studio',
    );
  });
});
