import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import { createTraceWriter } from '../trace';
import { syntheticSessionEvents } from '../trace/synthetic';

// The CLI as a user runs it: `node bin/capsule.js …` in child processes, CAPSULE_HOME in a temp
// folder, the door driven over real HTTP.

const BIN = resolve(__dirname, '../../bin/capsule.js');
let home: string;
const children: ChildProcess[] = [];

const MANIFEST = `name: my-worker
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
lifecycle:
  task_acceptance: queue
  after_task: sleep
`;

function writeManifest(name: string, text: string): string {
  const file = join(home, name);
  writeFileSync(file, text);
  return file;
}

function capsule(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 30_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Starts `capsule run` and resolves with its first two lines. */
async function run(manifest: string, ...extra: string[]) {
  const child = spawn(process.execPath, [BIN, 'run', '--manifest', manifest, ...extra], {
    env: { ...process.env, CAPSULE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines: string[] = [];
  const rl = createInterface({ input: child.stdout! });
  await new Promise<void>((ok, fail) => {
    rl.on('line', (l) => lines.push(l) === 2 && ok());
    void exited.then((code) => fail(new Error(`capsule run exited ${code}: ${stderr}`)));
  });
  return { child, lines, exited, stderr: () => stderr };
}

async function rpc(url: string, method: string, params: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: { code: number; message: string } };
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'capsule-cli-'));
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('capsule CLI', () => {
  it(
    'runs a session, lists it, cancels a hanging task, stops it and shows its trace',
    { timeout: 90_000 },
    async () => {
      const session = await run(writeManifest('worker.yaml', MANIFEST), '--port', '0');
      expect(session.lines[0]).toMatch(/^capsule: url http:\/\/127\.0\.0\.1:\d+$/);
      expect(session.lines[1]).toMatch(/^session: ses_[0-9a-f]{32}$/);
      const url = session.lines[0].slice('capsule: url '.length);
      const sessionId = session.lines[1].slice('session: '.length);

      const sent = await rpc(url, 'SendMessage', {
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'please hang' }] },
        configuration: { returnImmediately: true },
      });
      const taskId: string = sent.result.task.id;
      for (let state = ''; state !== 'TASK_STATE_WORKING';)
        state = (await rpc(url, 'GetTask', { id: taskId })).result.status.state;

      const ps = await capsule('ps');
      expect(ps.code).toBe(0);
      expect(ps.stdout).toMatch(
        new RegExp(`@1\\s+my-worker\\s+${url.replace(/[.:/]/g, '\\$&')}\\s+${sessionId}\\s+\\S+\\s+busy`),
      );

      const cancel = await capsule('cancel', '@1', taskId);
      expect(cancel).toMatchObject({ code: 0, stdout: `task ${taskId}: TASK_STATE_CANCELED\n` });
      const [again, unknown] = await Promise.all([
        capsule('cancel', sessionId.slice(-6), taskId),
        capsule('cancel', sessionId, `tsk_${'0'.repeat(32)}`),
      ]);
      expect(again).toMatchObject({
        code: 0,
        stdout: `nothing to cancel: task ${taskId} is already TASK_STATE_CANCELED\n`,
      });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^capsule: task tsk_0+ not found in session ses_/);

      const stop = await capsule('stop', '@1');
      expect(stop.code).toBe(0);
      expect(stop.stdout).toContain('canceled: nothing was running');
      expect(stop.stdout).toContain(`stopped: my-worker (${sessionId})`);
      expect(await session.exited).toBe(0);
      const [ps2, stop2, show, events, ls] = await Promise.all([
        capsule('ps'),
        capsule('stop', '@1'),
        capsule('trace', 'show', '@1'),
        capsule('trace', 'show', sessionId.slice(-8), '--events', '--type', 'task_end,session_end'),
        capsule('trace', 'ls', '--capsule', 'my-worker', '--since', '1h'),
      ]);
      expect(ps2.stdout).toBe('no capsule sessions running\n');
      expect(stop2.stderr).toMatch(/^capsule: no capsule session is running/);
      expect(show.code).toBe(0);
      expect(show.stdout).toMatch(
        /^── Session ─+\nsession: +ses_[0-9a-f]{32}\ncapsule: +my-worker v0\.1\.0\nstarted: .+\nduration: .+\nstatus: +ended \(stopped\)\ntokens: +in: 0 {2}out: 0\n/,
      );
      expect(show.stdout).toMatch(
        /── Tasks ─+\ntask 1 {2}tsk_[0-9a-f]{8} {2}turns: 0 {2}in: 0 {2}out: 0 {2}canceled {2}\S+\n/,
      );
      const lines = events.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((e) => e.event_type)).toEqual(['task_end', 'session_end']);
      expect(lines[0]).toMatchObject({ task_id: taskId, exit_status: 'canceled' });
      expect(ls.stdout).toMatch(new RegExp(`${sessionId}\\s+my-worker v0\\.1\\.0 .* ended\\s+1\\s+0/0`));
    },
  );

  it(
    'says how far indexing has come while it reads a long session for the first time',
    { timeout: 60_000 },
    async () => {
      const id = newSessionId();
      const w = createTraceWriter(join(home, 'records', id, 'trace.jsonl'), id);
      for (const e of syntheticSessionEvents({ tasks: 4000, capsule: 'long-runner' })) w.append(e); // ~10 MB: two index batches
      w.dispose();
      const ls = await capsule('trace', 'ls', '--capsule', 'long-runner');
      expect(ls.code).toBe(0);
      expect(ls.stderr).toMatch(new RegExp(`capsule: indexing ${id}: \\d+%\r`));
      expect(ls.stderr).toContain(`capsule: indexing ${id}: 100%\n`);
      expect(ls.stdout).toContain(id);
      // Indexed now: the next command has nothing to say about it.
      expect((await capsule('trace', 'ls', '--capsule', 'long-runner')).stderr).toBe('');
    },
  );

  it('exits by itself when the session ends (after_task: exit)', { timeout: 60_000 }, async () => {
    const session = await run(writeManifest('once.yaml', MANIFEST.replace('after_task: sleep', 'after_task: exit')));
    const url = session.lines[0].slice('capsule: url '.length);
    const answer = await rpc(url, 'SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
    });
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await session.exited).toBe(0);
  });

  it('refuses a bad manifest with file, field and hint, and starts nothing', async () => {
    const bad = writeManifest(
      'bad.yaml',
      MANIFEST.replace('queue_depth', 'x').replace('after_task: sleep', 'after_task: nap'),
    );
    const r = await capsule('run', '--manifest', bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bad.yaml');
    expect(r.stderr).toContain('lifecycle.after_task');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    expect(
      existsSync(join(home, 'run')) ? readdirSync(join(home, 'run')).filter((f) => f.includes('bad')) : [],
    ).toEqual([]);
  });

  it('names a port that is already taken', async () => {
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await capsule('run', '--manifest', writeManifest('w2.yaml', MANIFEST), '--port', String(port));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^capsule: port ${port} .*already in use`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it('prints usage, rejects unknown commands and bad flags with one line', async () => {
    const [help, unknown, flag, short] = await Promise.all([
      capsule(),
      capsule('frobnicate'),
      capsule('ps', '--bogus'),
      capsule('trace', 'show', 'ab', '--records', join(home, 'records')),
    ]);
    expect(help).toMatchObject({ code: 0 });
    expect(help.stdout).toMatch(/^usage: capsule <command>/);
    for (const name of ['run', 'ps', 'cancel', 'stop', 'trace'])
      expect(help.stdout).toMatch(new RegExp(`\\n  ${name} +\\S`));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^capsule: unknown command "frobnicate"\nusage:/);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^capsule: ps: Unknown option '--bogus'/);
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/^capsule: ab: too short for a session address/);
  });
});
