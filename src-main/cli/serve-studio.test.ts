import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { manageStudioToken } from './serve-studio';

// `capsule serve --studio` as another host would see it: the token printed once opens the
// Studio's contract; revoked from another process, it is refused with 401 and nothing is served.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-serve-studio-'));
let serve: ChildProcess | undefined;

afterAll(() => {
  if (serve && serve.exitCode === null) serve.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

const open = (url: string, token: string) =>
  new Promise<WebSocket>((done, fail) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${token}` } });
    ws.once('open', () => done(ws));
    ws.once('unexpected-response', (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', fail);
  });

describe('capsule serve --studio', () => {
  it('prints a token once, serves the contract with it, and refuses it once revoked', async () => {
    const ws = join(home, 'ws');
    mkdirSync(ws);
    writeFileSync(
      join(ws, 'solo.yaml'),
      'name: solo\nversion: "1"\ninference:\n  transport: embedded\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
    );
    writeFileSync(join(ws, 'formation.yaml'), 'capsules:\n  - id: solo\n    manifest: solo.yaml\nremotes: []\n');
    serve = spawn(process.execPath, [BIN, 'serve', '--workspace', ws, '--studio', '--studio-port', '0'], {
      env: { ...process.env, CAPSULE_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no token line: ${lines.join(' | ')}`)), 30_000);
      createInterface({ input: serve!.stdout! }).on('line', (l) => {
        lines.push(l);
        if (l.startsWith('studio token: ')) {
          clearTimeout(timer);
          done();
        }
      });
    });
    const url = lines.find((l) => l.startsWith('studio: '))!.slice('studio: '.length);
    const token = lines.find((l) => l.startsWith('studio token: '))!.slice('studio token: '.length);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines).toContain('capsule: solo launched');

    await expect(open(url, 'capsule_not_it')).rejects.toThrow('HTTP 401');
    const socket = await open(url, token);
    const reply = await new Promise<any>((done) => {
      socket.on('message', (d) => {
        const m = JSON.parse(String(d));
        if (m.type === 'reply' && m.id === 1) done(m);
      });
      socket.send(JSON.stringify({ type: 'invoke', id: 1, cmd: 'formation.get', input: {} }));
    });
    expect(reply.ok).toBe(true);
    expect(reply.value.capsules.map((c: any) => [c.id, c.state])).toContainEqual([
      'solo',
      expect.stringMatching(/idle|busy|running/),
    ]);

    const closed = new Promise<number>((r) => socket.once('close', (code) => r(code)));
    const saved = process.env.CAPSULE_HOME;
    process.env.CAPSULE_HOME = home;
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(manageStudioToken('revoke')).toBe(0);
    } finally {
      spy.mockRestore();
      process.env.CAPSULE_HOME = saved;
    }
    expect(await closed).toBe(4401);
    await expect(open(url, token)).rejects.toThrow('HTTP 401');

    const exited = new Promise<number | null>((r) => serve!.once('exit', (code) => r(code)));
    serve.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 60_000);

  it('refuses a workspace it cannot open, in one line, instead of serving nothing', { timeout: 60_000 }, async () => {
    const ws = join(home, 'broken');
    mkdirSync(join(ws, 'formation.yaml'), { recursive: true }); // a folder where the file should be
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
      execFile(
        process.execPath,
        [BIN, 'serve', '--workspace', ws, '--studio'],
        { env: { ...process.env, CAPSULE_HOME: home }, timeout: 20_000 },
        (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
      ),
    );
    // It used to serve a Studio with no workspace open and say nothing (until killed here).
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'capsule: the formation did not launch: No workspace is open: Cannot open the workspace: cannot read formation.yaml: it is a folder, not a file\n',
    );
  });
});
