import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cloudflaredProvider, ngrokProvider, ProviderError, type NgrokModule } from './index';

// Each provider's failure modes, offline: a missing binary, no network, a bad authtoken, an engine
// that never answers. Each says why in one line, and leaves nothing running.

const dir = mkdtempSync(join(tmpdir(), 'capsule-cloudflared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in cloudflared: a node script that prints what the real one prints in that case. */
function fakeCloudflared(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/usr/bin/env node\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
const env = { PATH: process.env.PATH };
const open = (bin: string, timeoutMs = 5000) => cloudflaredProvider(bin).open('http://127.0.0.1:9', { timeoutMs, env });

describe('cloudflared', () => {
  it('not installed: says so and names the other provider', async () => {
    await expect(open(join(dir, 'no-such-cloudflared'))).rejects.toThrow(
      /^cloudflared is not installed \(no ".*no-such-cloudflared" on PATH\): install it from Cloudflare, or use --provider ngrok$/,
    );
  });

  it('no network: one line with what cloudflared said', async () => {
    const bin = fakeCloudflared(
      'offline',
      `console.error('2026-12-05T10:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...');
       console.error('2026-12-05T10:00:00Z ERR failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host');
       process.exit(1);`,
    );
    const err = await open(bin).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/^cloudflared cannot reach Cloudflare \(no network\?\): .*no such host$/);
    expect((err as Error).message).not.toContain('\n');
  });

  it('opens with the quick tunnel URL it prints, and its close ends the process', async () => {
    const bin = fakeCloudflared(
      'works',
      `console.error('INF Requesting new quick Tunnel on trycloudflare.com...');
       console.error('INF |  https://quiet-river-abc.trycloudflare.com                                 |');
       process.on('SIGTERM', () => process.exit(0));
       setInterval(() => {}, 1000);`,
    );
    const opened = await open(bin);
    expect(opened.publicUrl).toBe('https://quiet-river-abc.trycloudflare.com');
    await opened.close();
  });

  it('gives up after its timeout when no URL comes, and ends the process', async () => {
    const bin = fakeCloudflared('silent', `console.error('INF Starting tunnel'); setInterval(() => {}, 1000);`);
    await expect(open(bin, 600)).rejects.toThrow(
      /^cloudflared gave no public URL within 1 s \(last said: INF Starting tunnel\)$/,
    );
  });

  it('does not hand our secrets to cloudflared', async () => {
    const out = join(dir, 'env.json');
    const bin = fakeCloudflared(
      'env',
      `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env)); console.error('https://a-b.trycloudflare.com'); setInterval(() => {}, 1000);`,
    );
    const opened = await cloudflaredProvider(bin).open('http://127.0.0.1:9', {
      timeoutMs: 5000,
      env: { PATH: process.env.PATH, NGROK_AUTHTOKEN: 'secret-value', ANTHROPIC_API_KEY: 'sk-x' },
    });
    await opened.close();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(out, 'utf8')).not.toMatch(/secret-value|sk-x/);
  });
});

describe('ngrok', () => {
  it('without an authtoken: names the variable, before any network', async () => {
    let loaded = false;
    const p = ngrokProvider({ load: async () => ((loaded = true), {} as NgrokModule) });
    await expect(p.open('http://127.0.0.1:9', { timeoutMs: 1000, env: {} })).rejects.toThrow(
      'ngrok needs an authtoken: set NGROK_AUTHTOKEN (a secret in the Studio, or in your shell)',
    );
    expect(loaded).toBe(false);
  });

  it('a bad authtoken: says the authtoken was refused, never its value', async () => {
    const fake: NgrokModule = {
      forward: async () =>
        Promise.reject(
          Object.assign(
            new Error(
              'authentication failed: The authtoken you specified does not look like a proper ngrok tunnel authtoken.',
            ),
            { errorCode: 'ERR_NGROK_105' },
          ),
        ),
    };
    const err = (await ngrokProvider({ tokenVar: 'MY_NGROK', load: async () => fake })
      .open('http://127.0.0.1:9', { timeoutMs: 1000, env: { MY_NGROK: 'bad-token-value' } })
      .catch((e: Error) => e)) as Error;
    expect(err.message).toBe(
      'ngrok refused the authtoken in MY_NGROK (ERR_NGROK_105): check it in your ngrok dashboard',
    );
    expect(err.message).not.toContain('bad-token-value');
  });

  it('no network: the real library, offline, fails in one line', async () => {
    const err = (await ngrokProvider()
      .open('http://127.0.0.1:9', { timeoutMs: 20_000, env: { NGROK_AUTHTOKEN: 'not-a-real-token' } })
      .catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(/^ngrok (cannot reach its service \(no network\?\)|refused the authtoken)/);
    expect(err.message).not.toContain('not-a-real-token');
  }, 30_000);

  it('never answers: gives up at its timeout and closes what opens later', async () => {
    let closed = false;
    const fake: NgrokModule = {
      forward: () =>
        new Promise((r) =>
          setTimeout(() => r({ url: () => 'https://late.ngrok.app', close: async () => void (closed = true) }), 300),
        ),
    };
    await expect(
      ngrokProvider({ load: async () => fake }).open('http://127.0.0.1:9', {
        timeoutMs: 100,
        env: { NGROK_AUTHTOKEN: 'x' },
      }),
    ).rejects.toThrow(/^ngrok gave no public URL within 0 s/);
    await new Promise((r) => setTimeout(r, 400));
    expect(closed).toBe(true);
  });
});
