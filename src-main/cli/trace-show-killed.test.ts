import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

// kill -9 in the middle of a task: nothing writes session_end or task_end, and once the process is
// gone `capsule trace show` reports the session and its task as interrupted, not running.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-killed-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const MANIFEST = `name: doomed
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    replies:
      - when: hang
        turns:
          - hang: true
`;

const capsule = (...args: string[]) =>
  new Promise<{ code: number; stdout: string }>((done) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 30_000 },
      (err, stdout) => done({ code: err ? 1 : 0, stdout }),
    ),
  );

describe('capsule trace show after kill -9', () => {
  it('lists the killed task as interrupted', { timeout: 60_000 }, async () => {
    const manifest = join(home, 'doomed.yaml');
    writeFileSync(manifest, MANIFEST);
    const child = spawn(process.execPath, [BIN, 'run', '--manifest', manifest, '--port', '0'], {
      env: { ...process.env, CAPSULE_HOME: home },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const lines: string[] = [];
    await new Promise<void>((ok) =>
      createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l) === 2 && ok()),
    );
    const url = lines[0].replace('capsule: url ', '');
    const params = {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hang here' }] },
      configuration: { returnImmediately: true },
    };
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params }),
    });
    // The task is under way (its task_start is on disk) before the process dies.
    const before = await capsule('trace', 'show', '@1');
    expect(before.stdout).toMatch(/^task 1 .* running /m);

    child.kill('SIGKILL');
    await exited;
    const after = await capsule('trace', 'show', '@1');
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/^status: +interrupted/m);
    expect(after.stdout).toMatch(/^task 1 .* interrupted /m);
    expect(after.stdout).not.toMatch(/^task 1 .* running/m);

    // Resumed, the session runs again; the task its old process never ended stays interrupted.
    const resumed = spawn(process.execPath, [BIN, 'run', '--manifest', manifest, '--port', '0', '--resume', '@1'], {
      env: { ...process.env, CAPSULE_HOME: home },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const resumedExit = new Promise<void>((r) => resumed.once('exit', () => r()));
    const again: string[] = [];
    await new Promise<void>((ok) =>
      createInterface({ input: resumed.stdout! }).on('line', (l) => again.push(l) === 2 && ok()),
    );
    expect(again[1]).toBe(lines[1]);
    const live = await capsule('trace', 'show', '@1');
    expect(live.stdout).toMatch(/^status: +running/m);
    expect(live.stdout).toMatch(/^task 1 .* interrupted /m);
    resumed.kill('SIGTERM');
    await resumedExit;
  });
});
