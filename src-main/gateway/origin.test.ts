import { afterEach, describe, expect, it } from 'vitest';
import { indexEntriesOf } from './cards';
import { startTestGateway, type TestGateway } from './testing';

// Which URL the cards advertise: the public origin setting wins; X-Forwarded-Host only when the
// proxy is trusted; otherwise the bound loopback address. The Origin rule follows the same origin.

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

async function cardUrl(g: TestGateway, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(g.gateway.urlsOf(g.name).card.replace(g.gateway.url, `http://127.0.0.1:${g.gateway.port}`), {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return ((await res.json()) as any).supportedInterfaces[0].url as string;
}

describe('public origin', () => {
  it('ignores X-Forwarded-Host unless the proxy is trusted', async () => {
    t = await startTestGateway();
    const token = t.gateway.exposures.enable(t.name).token;
    const url = await cardUrl(t, token, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(url).toBe(`http://127.0.0.1:${t.gateway.port}/a2a/capsules/${t.name}/`);
  });

  it('uses X-Forwarded-Host behind a trusted proxy, and accepts that origin as the caller Origin', async () => {
    t = await startTestGateway({}, { trustProxy: true });
    const token = t.gateway.exposures.enable(t.name).token;
    const fwd = { 'x-forwarded-host': 'agents.example.net', 'x-forwarded-proto': 'https' };
    expect(await cardUrl(t, token, fwd)).toBe(`https://agents.example.net/a2a/capsules/${t.name}/`);
    expect((await t.rpc(token, 'GetTask', { id: 'x' }, { ...fwd, origin: 'https://agents.example.net' })).status).toBe(
      200,
    );
    expect((await t.rpc(token, 'GetTask', { id: 'x' }, { ...fwd, origin: 'https://other.example.net' })).status).toBe(
      403,
    );
  });

  it('the public origin setting always wins', async () => {
    t = await startTestGateway({}, { trustProxy: true, publicOrigin: 'https://studio.example.com' });
    const token = t.gateway.exposures.enable(t.name).token;
    expect(await cardUrl(t, token, { 'x-forwarded-host': 'agents.example.net' })).toBe(
      `https://studio.example.com/a2a/capsules/${t.name}/`,
    );
    const index = (await (
      await fetch(`http://127.0.0.1:${t.gateway.port}/.well-known/agent-card.json`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as any;
    expect(indexEntriesOf(index)[0].card).toBe(
      `https://studio.example.com/a2a/capsules/${t.name}/.well-known/agent-card.json`,
    );
  });
});
