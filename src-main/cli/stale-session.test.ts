import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

// A running-session file outlives its process (kill -9, a crash, a reboot), and its pid is handed
// to some other process later. `capsule ps` and `capsule stop` must see that the session is gone,
// and never signal the stranger that now has the pid.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-stale-'));
const spawned: { kill(signal?: NodeJS.Signals): boolean }[] = [];
const sockets: Socket[] = [];
// Takes connections and never answers: a door whose process hangs, or a port now owned by
// something that is not a door.
const blackHole = createServer((socket) => void sockets.push(socket));
afterAll(() => {
  for (const s of sockets) s.destroy();
  blackHole.close();
  for (const p of spawned) p.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

const capsule = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 60_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

describe.runIf(process.platform === 'linux')('a session whose process died by kill -9', () => {
  it(
    'is not running once its pid belongs to another process, and stop leaves that process alone',
    { timeout: 60_000 },
    async () => {
      const manifest = join(home, 'quiet.yaml');
      writeFileSync(
        manifest,
        'name: quiet\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
      );
      const run = spawn(process.execPath, [BIN, 'run', '--manifest', manifest, '--port', '0'], {
        env: { ...process.env, CAPSULE_HOME: home },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      spawned.push(run);
      const lines: string[] = [];
      await new Promise<void>((ok) =>
        createInterface({ input: run.stdout! }).on('line', (l) => lines.push(l) === 2 && ok()),
      );
      const sessionId = lines[1].replace('session: ', '');
      const file = join(home, 'run', `${sessionId}.json`);
      const record = JSON.parse(readFileSync(file, 'utf8'));
      run.kill('SIGKILL');
      await new Promise((r) => run.once('exit', r));

      // The pid goes to a stranger (here: handed over by hand; the kernel does it after enough
      // processes, or after a reboot): alive, with a door-less port, hosting no session.
      const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      spawned.push(stranger);
      writeFileSync(file, JSON.stringify({ ...record, pid: stranger.pid }));

      const ps = await capsule('ps');
      expect(ps.stdout).toBe('no capsule sessions running\n');
      writeFileSync(file, JSON.stringify({ ...record, pid: stranger.pid })); // ps pruned it; stop meets it too
      const stop = await capsule('stop', sessionId.slice(-6));
      expect(stop.code).toBe(1);
      expect(stop.stderr).toContain('no capsule session is running');
      expect(stranger.exitCode).toBeNull();
      expect(stranger.signalCode).toBeNull();
    },
  );
});

describe('a session whose door takes connections and never answers', () => {
  it(
    'watch and send --stream say the door does not answer, instead of waiting for ever',
    { timeout: 60_000 },
    async () => {
      await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`;
      const id = 'ses_019ed2af53da75c2aefee84ee10c0a1e';
      mkdirSync(join(home, 'run'), { recursive: true });
      writeFileSync(
        join(home, 'run', `${id}.json`),
        JSON.stringify({
          session_id: id,
          name: 'hung',
          version: '0.1.0',
          url,
          pid: process.pid,
          manifest_path: 'm.yaml',
          workdir: home,
          started_at: Date.now(),
        }),
      );
      // Each used to wait for the stream to begin, for ever.
      const [watch, send] = await Promise.all([capsule('watch', '0a1e'), capsule('send', '0a1e', 'hello', '--stream')]);
      expect(watch).toMatchObject({ code: 1, stdout: '' });
      expect(watch.stderr).toContain(`the door at ${url} does not answer`);
      expect(send.code).toBe(1);
      expect(send.stderr).toContain(`the door at ${url} does not answer (timed out)`);
    },
  );
});
