import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `capsule send` and `capsule stop` against real processes: a `capsule serve` hosting three
// capsules and its gateway, and a `capsule run` hosting one. Stop must end exactly the session it
// names; the serve process, its other sessions and its gateway keep answering.

const BIN = resolve(__dirname, '../../bin/capsule.js');
let home: string;
let ws: string;
let serve: ChildProcess;
const lines: string[] = [];

const manifest = (name: string, script = '') => `name: ${name}
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
${script}`;

const SCRIPTED = `  rehearsal:
    replies:
      - when: slow
        turns:
          - hang: true
      - when: fail
        turns:
          - error: "simulated upstream failure"
      - when: ask
        turns:
          - tool_calls:
              - name: request_input
                arguments: { question: "Which colour?" }
          - text: "Noted."
      - when: count
        turns:
          - text: "one two three"
`;

const capsule = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 60_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

function waitLine(child: ChildProcess, seen: string[], pattern: RegExp): Promise<string> {
  const found = seen.find((l) => pattern.test(l));
  if (found) return Promise.resolve(found);
  return new Promise((done, fail) => {
    const rl = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => fail(new Error(`no line matching ${pattern}; got ${seen.join(' | ')}`)), 30_000);
    rl.on('line', (l) => {
      if (pattern.test(l)) {
        clearTimeout(timer);
        rl.close();
        done(l);
      }
    });
  });
}

const sessionOf = (line: string) => /\(session (ses_[0-9a-f]+)\)/.exec(line)![1];
const urlOf = (line: string) => /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1];
const traceOf = (id: string) => readFileSync(join(home, 'records', id, 'trace.jsonl'), 'utf8');
const card = (url: string) => fetch(`${url}/.well-known/agent-card.json`).then((r) => r.status);

const doors: Record<string, { url: string; session: string }> = {};
let gateway = '';

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'capsule-send-stop-'));
  ws = join(home, 'ws');
  mkdirSync(join(ws, 'capsules'), { recursive: true });
  for (const name of ['alpha', 'beta', 'gamma'])
    writeFileSync(join(ws, 'capsules', `${name}.yaml`), manifest(name, SCRIPTED));
  writeFileSync(
    join(ws, 'formation.yaml'),
    `capsules:\n${['alpha', 'beta', 'gamma'].map((n) => `  - id: ${n}\n    manifest: capsules/${n}.yaml\n`).join('')}remotes: []\n`,
  );
  serve = spawn(process.execPath, [BIN, 'serve', '--workspace', ws, '--gateway-port', '0'], {
    env: { ...process.env, CAPSULE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  createInterface({ input: serve.stdout! }).on('line', (l) => lines.push(l));
  gateway = urlOf(await waitLine(serve, lines, /^gateway: /));
  for (const name of ['alpha', 'beta', 'gamma']) {
    const line = lines.find((l) => l.startsWith(`capsule: ${name} `))!;
    doors[name] = { url: urlOf(line), session: sessionOf(line) };
  }
}, 60_000);

afterAll(() => {
  if (serve.exitCode === null) serve.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('capsule send', () => {
  it('prints the answer and exits 0 for a completed task', { timeout: 30_000 }, async () => {
    const r = await capsule('send', doors.alpha.session.slice(-6), 'hello', 'there');
    expect(r).toMatchObject({ code: 0, stdout: 'Acknowledged: “hello there”\n' });
    expect(r.stderr).toMatch(/^capsule: task tsk_[0-9a-f]+ TASK_STATE_COMPLETED\n$/);
  });

  it('sends a data part and a file part, and continues a context', { timeout: 30_000 }, async () => {
    const file = join(home, 'notes.txt');
    writeFileSync(file, 'remember the milk\n');
    const first = await capsule('send', doors.alpha.session, 'first', '--data', '{"n":1}', '--file', file);
    expect(first.code).toBe(0);
    const taskId = /task (tsk_[0-9a-f]+)/.exec(first.stderr)![1];
    const got = (await fetch(doors.alpha.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: taskId, historyLength: 10 } }),
    }).then((r) => r.json())) as { result: { contextId: string; history: { parts: Record<string, unknown>[] }[] } };
    expect(got.result.history[0].parts).toEqual([
      { text: 'first' },
      { raw: Buffer.from('remember the milk\n').toString('base64'), filename: 'notes.txt', mediaType: 'text/plain' },
      { data: { n: 1 }, mediaType: 'application/json' },
    ]);
    const second = await capsule('send', doors.alpha.session, 'second', '--context', got.result.contextId);
    expect(second.code).toBe(0);
    const trace = traceOf(doors.alpha.session);
    const received = trace.split('\n').filter((l) => l.includes('"a2a_task_received"') && l.includes('second'));
    expect(received[0]).toContain(got.result.contextId);
  });

  it('--no-wait prints the task id at once; the exit status follows the final state', { timeout: 60_000 }, async () => {
    const queued = await capsule('send', doors.beta.session, 'slow one', '--no-wait');
    expect(queued.code).toBe(0);
    expect(queued.stdout).toMatch(/^tsk_[0-9a-f]{32}\n$/);
    const canceled = await capsule('cancel', doors.beta.session, queued.stdout.trim());
    expect(canceled.stdout).toContain('TASK_STATE_CANCELED');

    const failed = await capsule('send', doors.beta.session, 'fail please');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/TASK_STATE_FAILED: task failed: .*simulated upstream failure/);
  });

  it('--stream prints the answer as it comes, then the final state', { timeout: 30_000 }, async () => {
    const r = await capsule('send', doors.beta.session, 'count for me', '--stream');
    expect(r).toMatchObject({ code: 0, stdout: 'one two three\n' });
    expect(r.stderr).toContain('TASK_STATE_COMPLETED');
  });

  it('a task that asks a question exits 4 and takes the answer with --task', { timeout: 30_000 }, async () => {
    const asked = await capsule('send', doors.beta.session, 'ask me something');
    expect(asked.code).toBe(4);
    expect(asked.stderr).toContain('waits for input: Which colour?');
    const taskId = /task (tsk_[0-9a-f]+) waits/.exec(asked.stderr)![1];
    const answered = await capsule('send', doors.beta.session, 'blue', '--task', taskId);
    expect(answered).toMatchObject({ code: 0, stdout: 'Noted.\n' });
    expect(answered.stderr).toContain(`task ${taskId} TASK_STATE_COMPLETED`);
  });

  it('refuses a usage mistake with exit 2', async () => {
    expect((await capsule('send', doors.beta.session)).code).toBe(2);
    expect((await capsule('send', doors.beta.session, 'x', '--data', '{oops')).code).toBe(2);
    expect((await capsule('send', doors.beta.session, 'x', '--stream', '--no-wait')).code).toBe(2);
  });
});

describe('capsule stop', () => {
  it(
    'ends exactly the named session of a serve process; its neighbours and the gateway keep answering',
    { timeout: 60_000 },
    async () => {
      const slow = await capsule('send', doors.gamma.session, 'slow work', '--no-wait');
      const taskId = slow.stdout.trim();
      // @1 is the newest running session: gamma, launched last.
      const stop = await capsule('stop', '@1');
      expect(stop.stderr).not.toContain('signalling');
      expect(stop).toMatchObject({ code: 0, stdout: `canceled: ${taskId}\nstopped: gamma (${doors.gamma.session})\n` });

      expect(traceOf(doors.gamma.session)).toContain('"session_end"');
      expect(existsSync(join(home, 'run', `${doors.gamma.session}.json`))).toBe(false);
      await expect(card(doors.gamma.url)).rejects.toThrow();

      expect(serve.exitCode).toBeNull();
      expect(await card(doors.alpha.url)).toBe(200);
      expect(await card(doors.beta.url)).toBe(200);
      expect((await fetch(gateway)).status).toBeLessThan(500);
      expect(traceOf(doors.alpha.session)).not.toContain('"session_end"');
      const again = await capsule('send', doors.beta.session, 'still there?');
      expect(again).toMatchObject({ code: 0, stdout: 'Acknowledged: “still there?”\n' });
      const ps = await capsule('ps');
      expect(ps.stdout).toContain(doors.alpha.session);
      expect(ps.stdout).not.toContain(doors.gamma.session);
    },
  );

  it('ends a capsule run session by its own end, and the run process returns', { timeout: 60_000 }, async () => {
    const run = spawn(process.execPath, [BIN, 'run', '--manifest', join(ws, 'capsules', 'alpha.yaml'), '--port', '0'], {
      env: { ...process.env, CAPSULE_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const seen: string[] = [];
    createInterface({ input: run.stdout! }).on('line', (l) => seen.push(l));
    const id = /^session: (ses_[0-9a-f]+)/.exec(await waitLine(run, seen, /^session: /))![1];
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      run.once('exit', (code, signal) => r({ code, signal })),
    );
    const stop = await capsule('stop', id.slice(-8));
    expect(stop).toMatchObject({ code: 0, stdout: `canceled: nothing was running\nstopped: alpha (${id})\n` });
    expect(stop.stderr).not.toContain('signalling');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(traceOf(id)).toContain('"session_end"');
    expect(readdirSync(join(home, 'run')).some((f) => f.startsWith(id))).toBe(false);
    expect(serve.exitCode).toBeNull();
  });

  it(
    'capsule run on Ctrl-C cancels its task and ends its session cleanly, then exits 0',
    { timeout: 60_000 },
    async () => {
      const run = spawn(
        process.execPath,
        [BIN, 'run', '--manifest', join(ws, 'capsules', 'alpha.yaml'), '--port', '0'],
        { env: { ...process.env, CAPSULE_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let err = '';
      run.stderr!.on('data', (d) => (err += String(d)));
      const seen: string[] = [];
      createInterface({ input: run.stdout! }).on('line', (l) => seen.push(l));
      const id = /^session: (ses_[0-9a-f]+)/.exec(await waitLine(run, seen, /^session: /))![1];
      const exited = new Promise<number | null>((r) => run.once('exit', (code) => r(code)));
      expect((await capsule('send', id, 'slow job', '--no-wait')).code).toBe(0);
      run.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(err).toContain('capsule: SIGINT: ending 1 session (press Ctrl-C again to force)');
      expect(err).toContain(`capsule: session ${id} ended (stopped)`);
      const trace = traceOf(id);
      expect(trace).toContain('"task_canceled"');
      expect(trace).toContain('"session_end"');
      expect(existsSync(join(home, 'run', `${id}.json`))).toBe(false);
    },
  );

  it(
    'capsule serve on Ctrl-C ends every session it still hosts cleanly, then exits 0',
    { timeout: 60_000 },
    async () => {
      const exited = new Promise<number | null>((r) => serve.once('exit', (code) => r(code)));
      serve.kill('SIGINT');
      expect(await exited).toBe(0);
      for (const name of ['alpha', 'beta']) expect(traceOf(doors[name].session)).toContain('"session_end"');
      const left = existsSync(join(home, 'run'))
        ? readdirSync(join(home, 'run')).filter((f) => f.endsWith('.json'))
        : [];
      expect(left).toEqual([]);
    },
  );
});
