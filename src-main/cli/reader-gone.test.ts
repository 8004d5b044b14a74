import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

// A short command piped into a reader that stops early (`capsule watch @1 | head -3`): once the
// pipe closes, the command ends quietly, as a pipe's writer does.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-reader-gone-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

const capsule = (...args: string[]) => {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, CAPSULE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const firstLine = () => new Promise<string>((ok) => createInterface({ input: child.stdout! }).once('line', ok));
  return { child, exited, firstLine, stderr: () => stderr };
};

async function send(url: string, text: string) {
  const params = { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } };
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params }),
  });
}

describe('capsule watch | head', () => {
  it('ends with exit 0 and no stack trace once its reader has gone', { timeout: 60_000 }, async () => {
    const manifest = join(home, 'quiet.yaml');
    writeFileSync(
      manifest,
      'name: quiet\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
    );
    const run = capsule('run', '--manifest', manifest, '--port', '0');
    const url = (await run.firstLine()).replace('capsule: url ', '');

    const watch = capsule('watch', '--url', url, '--from', 'start');
    expect(await watch.firstLine()).toMatch(/^session ses_/);
    watch.child.stdout!.destroy(); // head has its line and exits
    await send(url, 'hello'); // more lines for watch to write
    // It used to die of an unhandled EPIPE, a stack trace on stderr and exit 1.
    const code = await Promise.race([
      watch.exited,
      new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000)),
    ]);
    expect(code).toBe(0);
    expect(watch.stderr()).toBe('');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});
