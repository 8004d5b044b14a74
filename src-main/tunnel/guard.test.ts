import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { COOKIE_NAME, startGuard, type Guard } from './guard';
import { createLinkSigner } from './link';

// The guard alone, in front of a slow stand-in gateway: expiry, limits, and what it passes on.

let upstream: Server | undefined;
let guard: Guard | undefined;
afterEach(async () => {
  await guard?.close();
  upstream?.closeAllConnections();
  await new Promise((r) => (upstream ? upstream.close(r) : r(undefined)));
});

async function setUp(opts: { maxInFlight?: number; delayMs?: number } = {}) {
  const got: Record<string, string | string[] | undefined>[] = [];
  upstream = createServer((req, res) => {
    got.push(req.headers);
    setTimeout(() => res.end('ok'), opts.delayMs ?? 0);
  });
  await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', () => r()));
  const signer = createLinkSigner('tun_0123456789ab');
  guard = await startGuard({
    gatewayUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    publicOrigin: () => 'https://pub.example.test',
    signer,
    proof: 'the-proof',
    revoked: () => false,
    onAccess: () => undefined,
    maxInFlight: opts.maxInFlight,
  });
  const cookie = `${COOKIE_NAME}=${signer.mint('cookie', Date.now() + 60_000)}`;
  return { signer, cookie, got };
}

describe('the tunnel guard', () => {
  it('refuses an expired link and an expired cookie', async () => {
    const { signer } = await setUp();
    const link = await fetch(`${guard!.url}/?t=${signer.mint('link', Date.now() - 1)}`, { redirect: 'manual' });
    expect(link.status).toBe(401);
    expect(((await link.json()) as any).error).toBe('tunnel_expired_link');
    const old = await fetch(`${guard!.url}/x`, {
      headers: { cookie: `${COOKIE_NAME}=${signer.mint('cookie', Date.now() - 1)}` },
    });
    expect(((await old.json()) as any).error).toBe('tunnel_expired_link');
    // A link is not a cookie, nor the other way round.
    const swapped = await fetch(`${guard!.url}/x`, {
      headers: { cookie: `${COOKIE_NAME}=${signer.mint('link', Date.now() + 60_000)}` },
    });
    expect(((await swapped.json()) as any).error).toBe('tunnel_bad_link');
  });

  it('above its limit answers 503 with Retry-After, never a reset', async () => {
    const { cookie } = await setUp({ maxInFlight: 2, delayMs: 400 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`${guard!.url}/slow`, { headers: { cookie } })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 503, 503, 503, 503]);
    const busy = answers.find((a) => a.status === 503)!;
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(((await busy.json()) as any).error).toBe('tunnel_busy');
  });

  it("forwards the public host and its proof, drops the caller's forwarding headers and the tunnel cookie", async () => {
    const { cookie, got } = await setUp();
    const res = await fetch(`${guard!.url}/a`, {
      headers: {
        cookie: `${cookie}; other=1`,
        'x-forwarded-host': 'evil.example',
        'x-forwarded-for': '6.6.6.6',
        'x-capsule-tunnel-proof': 'forged',
      },
    });
    expect(await res.text()).toBe('ok');
    expect(got[0]).toMatchObject({
      'x-forwarded-host': 'pub.example.test',
      'x-forwarded-proto': 'https',
      'x-capsule-tunnel-proof': 'the-proof',
      cookie: 'other=1',
    });
    expect(got[0]['x-forwarded-for']).toBeUndefined();
  });
});
