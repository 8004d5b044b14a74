import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main as expose } from './expose';

// A gateway token put where it does not belong (a query string, a fragment, the path, a capsule
// name, another header) is refused as usual and reaches neither gateway-access.jsonl nor the
// stderr of `capsule serve`, in any spelling the caller used.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-serve-leak-'));
let serve: ChildProcess | undefined;
afterAll(() => {
  if (serve?.exitCode === null) serve.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

/** A raw request: the target goes on the wire exactly as written (fragments included). */
function raw(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<number> {
  const u = new URL(base);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: target,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

describe('capsule serve keeps gateway tokens out of its logs', () => {
  it(
    'query, fragment, path, capsule name and header shapes: the token is in no file and not on stderr',
    { timeout: 60_000 },
    async () => {
      const ws = join(home, 'ws');
      mkdirSync(join(ws, 'capsules'), { recursive: true });
      writeFileSync(
        join(ws, 'capsules', 'alpha.yaml'),
        'name: alpha\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
      );
      writeFileSync(
        join(ws, 'formation.yaml'),
        'capsules:\n  - id: alpha\n    manifest: capsules/alpha.yaml\nremotes: []\n',
      );
      serve = spawn(process.execPath, [BIN, 'serve', '--workspace', ws, '--gateway-port', '0'], {
        env: { ...process.env, CAPSULE_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      serve.stderr!.on('data', (d) => (stderr += d));
      const gateway = await new Promise<string>((done) =>
        createInterface({ input: serve!.stdout! }).on('line', (l) => l.startsWith('gateway: ') && done(l.slice(9))),
      );

      const saved = process.env.CAPSULE_HOME;
      process.env.CAPSULE_HOME = home;
      const out: string[] = [];
      const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (out.push(String(chunk)), true));
      try {
        expect(await expose(['alpha'])).toBe(0);
      } finally {
        spy.mockRestore();
        process.env.CAPSULE_HOME = saved;
      }
      const token = /^token: (\S+)$/m.exec(out.join(''))![1];
      const secretPart = token.slice('capsule_'.length);
      const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'tsk_x' } });
      const auth = { authorization: `Bearer ${token}` };

      const shapes: Array<[string, string, Record<string, string>?, string?]> = [
        ['GET', `/a2a/capsules/alpha?token=${token}`],
        ['POST', `/a2a/capsules/alpha?access_token=${token}`, {}, rpc],
        ['GET', `/a2a/capsules/alpha#token=${token}`],
        ['GET', `/a2a/capsules/alpha/.well-known/agent-card.json?key=${token}`, auth],
        ['GET', `/a2a/capsules/${token}`],
        ['POST', `/a2a/capsules/${token}`, {}, rpc],
        ['POST', `/a2a/capsules/${token}`, auth, rpc],
        ['POST', `/a2a/capsules/${secretPart}`, {}, rpc],
        ['GET', `/a2a/capsules/%63apsule_${secretPart}/.well-known/agent-card.json`],
        ['GET', `/${token}/x?y=${token}`, auth],
        ['GET', `/nothing/${secretPart}`],
        ['POST', '/a2a/capsules/alpha', { authorization: `Bearer ${token}x`, 'x-api-key': token }, rpc],
        [
          'POST',
          '/a2a/capsules/alpha',
          { ...auth, 'x-api-key': token },
          JSON.stringify({ jsonrpc: '2.0', id: 2, method: `x${secretPart}`, params: {} }),
        ],
        ['POST', '/a2a/capsules/alpha', { ...auth, 'x-api-key': token }, rpc],
      ];
      const statuses: number[] = [];
      for (const [method, target, headers, body] of shapes)
        statuses.push(await raw(gateway, method, target, headers, body));
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.at(-1)).toBe(200);

      const exited = new Promise<number | null>((r) => serve!.once('exit', (code) => r(code)));
      serve.kill('SIGINT');
      expect(await exited).toBe(0);

      const log = readFileSync(join(home, 'gateway', 'gateway-access.jsonl'), 'utf8');
      expect(log.trim().split('\n').length).toBeGreaterThanOrEqual(shapes.length);
      for (const text of [log, stderr]) {
        expect(text).not.toContain(secretPart);
        expect(text).not.toContain(secretPart.slice(0, 16));
        expect(text).not.toContain(encodeURIComponent(token));
      }
      // Nor any other file the gateway or the capsule wrote (exposures keep a hash, traces no header).
      const files = readdirSync(home, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(files.length).toBeGreaterThan(3);
      for (const f of files) expect(readFileSync(join(f.parentPath, f.name), 'latin1')).not.toContain(secretPart);
      // What stays: the path without the query, and a line per call on stderr.
      expect(log).toContain('GET /a2a/capsules/alpha (query dropped)');
      expect(stderr).toMatch(/^access: .* 401 unauthorized/m);
    },
  );
});
