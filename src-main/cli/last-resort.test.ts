import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

// `capsule run` as a user runs it, in a child process, facing what used to end it: a model that
// names a malformed peer URL, and a bug that loses a rejection or throws from a timer (injected by
// a preloaded fault, fault.fixture.cjs). Each time the task fails clearly, the trace says why,
// and the same process answers the next task.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const FAULT = resolve(__dirname, 'fault.fixture.cjs');
const home = mkdtempSync(join(tmpdir(), 'capsule-last-resort-'));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

const delegateTo = (when: string, to: string) => `      - when: ${when}
        turns:
          - tool_calls:
              - name: delegate_task
                arguments: { to: "${to}", text: "go" }
          - text: "done after ${when}"`;

const MANIFEST = `name: fragile
version: "0.1.0"
capabilities:
  network:
    allow: ["127.0.0.1"]
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    replies:
${delegateTo('bad-url', 'http://127.0.0.1:100775/')}
${delegateTo('lost-rejection', 'http://127.0.0.1:9/inject-rejection')}
${delegateTo('timer-throw', 'http://127.0.0.1:9/inject-throw')}
`;

async function rpc(url: string, text: string) {
  const params = { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } };
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params }),
  });
  return ((await res.json()) as { result: { task: any } }).result.task;
}

/** `capsule run` of a plain rehearsal capsule, its output piped to the test. */
function runQuiet() {
  const manifest = join(home, 'quiet.yaml');
  writeFileSync(
    manifest,
    'name: quiet\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
  );
  const run = spawn(process.execPath, [BIN, 'run', '--manifest', manifest, '--port', '0'], {
    env: { ...process.env, CAPSULE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = run;
  const exited = new Promise<number | null>((r) => run.once('exit', (code) => r(code)));
  return { run, exited };
}

const within10s = (exited: Promise<number | null>) =>
  Promise.race([exited, new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000))]);

describe('capsule run survives what it did not expect', () => {
  it(
    'a bad peer URL, a lost rejection and a timer that throws each fail one task; the process answers on',
    { timeout: 60_000 },
    async () => {
      const manifest = join(home, 'fragile.yaml');
      writeFileSync(manifest, MANIFEST);
      child = spawn(process.execPath, ['-r', FAULT, BIN, 'run', '--manifest', manifest, '--port', '0'], {
        env: { ...process.env, CAPSULE_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
      const lines: string[] = [];
      const rl = createInterface({ input: child.stdout! });
      await new Promise<void>((ok, fail) => {
        rl.on('line', (l) => lines.push(l) === 2 && ok());
        void exited.then((code) => fail(new Error(`capsule run exited ${code}: ${stderr}`)));
      });
      const url = lines[0].replace('capsule: url ', '');

      const bad = await rpc(url, 'bad-url');
      expect(bad.status.state).toBe('TASK_STATE_COMPLETED');
      const rejected = await rpc(url, 'lost-rejection');
      expect(rejected.status.state).toBe('TASK_STATE_FAILED');
      expect(rejected.status.message.parts[0].text).toContain('internal error (unhandled rejection)');
      const thrown = await rpc(url, 'timer-throw');
      expect(thrown.status.state).toBe('TASK_STATE_FAILED');
      expect(thrown.status.message.parts[0].text).toContain('internal error (uncaught exception)');
      const fine = await rpc(url, 'hello');
      expect(fine.status.state).toBe('TASK_STATE_COMPLETED');
      expect(child.exitCode).toBe(null);
      expect(stderr).toContain(`unexpected error (unhandled rejection) in task ${rejected.id}`);
      expect(stderr).toContain(`unexpected error (uncaught exception) in task ${thrown.id}`);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const sessionId = lines[1].replace('session: ', '');
      const trace = readFileSync(join(home, 'records', sessionId, 'trace.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(trace.find((l) => l.event_type === 'tool_result' && l.task_id === bad.id)).toMatchObject({
        ok: false,
        result: expect.stringContaining('invalid arguments: to:'),
      });
      expect(trace.filter((l) => l.event_type === 'runtime_error').map((l) => [l.task_id, l.message])).toEqual([
        [rejected.id, 'injected rejection'],
        [thrown.id, 'injected throw'],
      ]);
      expect(trace.at(-1)!.event_type).toBe('session_end');
    },
  );

  it('ends cleanly when the reader of its output went away (`capsule run | head`)', { timeout: 30_000 }, async () => {
    const { run, exited } = runQuiet();
    const first = await new Promise<string>((ok) => createInterface({ input: run.stdout! }).once('line', ok));
    const url = first.replace('capsule: url ', '');
    // Both pipes close, as when `head` has printed its line and exits; the next write fails (EPIPE).
    run.stdout!.destroy();
    run.stderr!.destroy();
    expect((await rpc(url, 'hello')).status.state).toBe('TASK_STATE_COMPLETED');
    run.kill('SIGTERM'); // its "ending 1 session" goes to the closed stderr
    // It used to spin at full CPU for ever: the failed write reached the last-resort handler,
    // whose report to the same stderr failed again.
    expect(await within10s(exited)).toBe(0);
  });

  it('ends its session cleanly when the terminal closes (SIGHUP, its output gone)', { timeout: 30_000 }, async () => {
    const { run, exited } = runQuiet();
    const lines: string[] = [];
    await new Promise<void>((ok) =>
      createInterface({ input: run.stdout! }).on('line', (l) => lines.push(l) === 2 && ok()),
    );
    const sessionId = lines[1].replace('session: ', '');
    run.stdout!.destroy();
    run.stderr!.destroy();
    expect((await rpc(lines[0].replace('capsule: url ', ''), 'hello')).status.state).toBe('TASK_STATE_COMPLETED');
    // Closing a terminal hangs up its jobs; the shell and then the kernel may each send one.
    run.kill('SIGHUP');
    run.kill('SIGHUP');
    // It used to die of the signal: no session_end, its running file left behind.
    expect(await within10s(exited)).toBe(0);
    const trace = readFileSync(join(home, 'records', sessionId, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(trace.at(-1)!)).toMatchObject({ event_type: 'session_end', reason: 'stopped' });
    expect(existsSync(join(home, 'run', `${sessionId}.json`))).toBe(false);
  });

  it('ends its session cleanly when signalled the moment its first line is read', { timeout: 60_000 }, async () => {
    // A script that reads the url and stops the capsule at once (three times: it was a race the
    // signal mostly won, killing the process before it heard signals; no session_end).
    for (let i = 0; i < 3; i++) {
      const { run, exited } = runQuiet();
      let out = '';
      run.stdout!.on('data', (d) => {
        if (!out) run.kill('SIGTERM');
        out += d;
      });
      expect(await exited).toBe(0); // not killed by the signal (that exits with null)
      const sessionId = /session: (\S+)/.exec(out)![1];
      const trace = readFileSync(join(home, 'records', sessionId, 'trace.jsonl'), 'utf8')
        .trim()
        .split('\n');
      expect(JSON.parse(trace.at(-1)!)).toMatchObject({ event_type: 'session_end' });
    }
  });
});
