import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `capsule tunnel` as a user runs it, with a stand-in cloudflared (a node script that is a loopback
// reverse proxy and prints a trycloudflare URL, as the real one does): create prints the link
// once, ls lists it, the link gives a cookie, revoke and stop from another terminal take effect.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const dir = mkdtempSync(join(tmpdir(), 'capsule-tunnel-cli-'));
const home = join(dir, 'home');
const portFile = join(dir, 'edge-port');
const fake = join(dir, 'cloudflared');
writeFileSync(
  fake,
  `#!/usr/bin/env node
const http = require('node:http');
const target = new URL(process.argv[process.argv.indexOf('--url') + 1]);
const server = http.createServer((req, res) => {
  const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-host': 'quiet-river-abc.trycloudflare.com' } }, (a) => { res.writeHead(a.statusCode, a.headers); a.pipe(res); });
  up.on('error', () => res.destroy());
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => {
  require('node:fs').writeFileSync(${JSON.stringify(portFile)}, String(server.address().port));
  console.error('INF |  https://quiet-river-abc.trycloudflare.com  |');
});
process.on('SIGTERM', () => process.exit(0));
`,
);
chmodSync(fake, 0o755);
const env = { ...process.env, CAPSULE_HOME: home, CLOUDFLARED_PATH: fake };

function capsule(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [BIN, ...args], { env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

let host: ChildProcess;
const out: string[] = [];
let exited: Promise<number>;
beforeAll(async () => {
  host = spawn(process.execPath, [BIN, 'tunnel', 'create', '--ttl', '1h'], { env });
  exited = new Promise((r) => host.on('exit', (c) => r(c ?? 1)));
  const rl = createInterface({ input: host.stdout! });
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`no link; got ${out.join(' | ')}`)), 30_000);
    rl.on('line', (l) => {
      out.push(l);
      if (l.startsWith('link: ')) {
        clearTimeout(timer);
        ready();
      }
    });
  });
}, 40_000);
afterAll(async () => {
  host.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const value = (key: string) => out.find((l) => l.startsWith(`${key}: `))!.slice(key.length + 2);
const edge = () => `http://127.0.0.1:${readFileSync(portFile, 'utf8')}`;

describe('capsule tunnel', () => {
  it('create prints the public URL, its expiry and the link once; ls lists it open', async () => {
    expect(value('public url')).toBe('https://quiet-river-abc.trycloudflare.com');
    expect(value('link')).toMatch(/^https:\/\/quiet-river-abc\.trycloudflare\.com\/\?t=[\w-]+\.[\w-]{43}$/);
    const id = value('tunnel').split(' ')[0];
    const ls = await capsule('tunnel', 'ls');
    expect(ls.stdout).toContain(`${id}  open     cloudflared`);
    expect(ls.stdout).not.toContain(value('link').split('?t=')[1]);
  }, 20_000);

  it('the link gives a cookie; without it everything is refused; revoke from another terminal refuses it', async () => {
    const link = value('link').replace('https://quiet-river-abc.trycloudflare.com', edge());
    expect((await fetch(`${edge()}/.well-known/agent-card.json`)).status).toBe(401);
    const x = await fetch(link, { redirect: 'manual' });
    expect(x.status).toBe(303);
    const cookie = x.headers.get('set-cookie')!.split(';')[0];
    // Past the guard: the gateway answers (it wants the capsule's bearer token).
    const passed = await fetch(`${edge()}/.well-known/agent-card.json`, { headers: { cookie } });
    expect(passed.status).toBe(401);
    expect(((await passed.json()) as any).error).toBe('unauthorized');
    const id = value('tunnel').split(' ')[0];
    expect((await capsule('tunnel', 'revoke', id)).stdout).toContain(`revoked: ${id}`);
    const refused = await fetch(`${edge()}/.well-known/agent-card.json`, { headers: { cookie } });
    expect(((await refused.json()) as any).error).toBe('tunnel_revoked');
  }, 20_000);

  it('stop from another terminal tears it down and the host exits', async () => {
    const id = value('tunnel').split(' ')[0];
    const stopped = await capsule('tunnel', 'stop', id);
    expect(stopped.stdout).toBe(`stopped: ${id}\n`);
    expect(await exited).toBe(0);
    expect((await capsule('tunnel', 'ls')).stdout).toBe('no tunnels\n');
  }, 20_000);

  it('a provider that cannot start says why in one line, exit 1', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((done) => {
      const p = spawn(process.execPath, [BIN, 'tunnel', 'create'], {
        env: { ...env, CLOUDFLARED_PATH: join(dir, 'missing') },
      });
      let stderr = '';
      p.stderr.on('data', (d) => (stderr += d));
      p.on('exit', (code) => done({ code: code ?? 1, stderr }));
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/the tunnel could not open, nothing is exposed: cloudflared is not installed/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }, 20_000);

  it('bad input is refused with the usage', async () => {
    expect((await capsule('tunnel', 'create', '--ttl', '3 days')).stderr).toContain(
      '--ttl takes a duration such as 90s, 30m, 24h or 7d',
    );
    expect((await capsule('tunnel', 'create', '--provider', 'frp')).code).toBe(2);
    expect((await capsule('tunnel', 'stop', 'tun_000000000000')).stderr).toContain('no tunnel tun_000000000000');
  }, 30_000);
});
