import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRunningFile } from '../trace';

// cancel and stop print what a session leaves behind. A stand-in door answers with residue the
// way docs/door.md describes it, and a sleeping child process plays the session's process for stop.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const SESSION = 'ses_019ed2af53da75c2aefee84ee10c34af';
const TASK = 'tsk_019ed5211c827f63a8fe4be623277c55';
const residue = [
  { kind: 'detached_shell', work_id: 'wrk_9f2a1c', binary: 'bash', command: 'sleep 30', started_at_ms: 1757068800123 },
  {
    kind: 'delegation',
    delegation_id: 'dlg_7b31de',
    capsule: 'my-worker',
    version: '0.1.0',
    child_session_id: 'ses_019ed1f0aa',
    child_workdir: '/tmp/x',
  },
];

let home: string;
let door: Server;
const seen: { method: string; version: unknown }[] = [];

function answer(method: string, params: { id?: string }) {
  if (method === 'CancelTask' && params.id === TASK) {
    return {
      result: {
        id: TASK,
        status: { state: 'TASK_STATE_CANCELED' },
        artifacts: [
          {
            artifactId: 'residue',
            name: 'residue',
            parts: residue.map((data) => ({ data, mediaType: 'application/json' })),
          },
        ],
      },
    };
  }
  if (method === 'CancelTask') {
    const metadata = { taskId: params.id, state: 'TASK_STATE_COMPLETED' };
    return {
      error: {
        code: -32002,
        message: 'Task cannot be canceled: it is already TASK_STATE_COMPLETED',
        data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_CANCELABLE', metadata }],
      },
    };
  }
  if (method === 'murmur.StopSession')
    return { result: { session_id: SESSION, canceled: [TASK], residue: [residue[0]] } };
  return { error: { code: -32601, message: `Method not found: ${method}` } };
}

const capsule = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 30_000 },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'capsule-residue-'));
  door = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const rpc = JSON.parse(body);
      seen.push({ method: rpc.method, version: req.headers['a2a-version'] });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, ...answer(rpc.method, rpc.params) }));
    });
  });
  await new Promise<void>((r) => door.listen(0, '127.0.0.1', r));
});
afterAll(() => {
  door.close();
  rmSync(home, { recursive: true, force: true });
});

describe('residue in cancel and stop', () => {
  it('prints a detached shell as running: and a delegation as ended:', { timeout: 60_000 }, async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((r) => sleeper.once('exit', (_code, signal) => r(signal)));
    const url = `http://127.0.0.1:${(door.address() as { port: number }).port}`;
    writeRunningFile(join(home, 'run'), {
      session_id: SESSION,
      name: 'my-worker',
      version: '0.1.0',
      url,
      pid: sleeper.pid!,
      manifest_path: 'm.yaml',
      workdir: home,
      started_at: Date.now(),
    });

    const [cancel, finished] = await Promise.all([
      capsule('cancel', '34af', TASK),
      capsule('cancel', '@1', 'tsk_019ed5211c827f63a8fe4be6232700aa'),
    ]);
    expect(cancel).toMatchObject({
      code: 0,
      stdout: `task ${TASK}: TASK_STATE_CANCELED\nrunning: sleep 30\nended: my-worker (ses_019ed1f0aa)\n`,
    });
    expect(finished).toMatchObject({
      code: 0,
      stdout: 'nothing to cancel: task tsk_019ed5211c827f63a8fe4be6232700aa is already TASK_STATE_COMPLETED\n',
    });

    // This door has no murmur.EndSession and its process hosts nothing else (as `capsule run`
    // records): stop asks, gets no end, and only then signals it.
    writeRunningFile(join(home, 'run'), {
      session_id: SESSION,
      name: 'my-worker',
      version: '0.1.0',
      url,
      pid: sleeper.pid!,
      manifest_path: 'm.yaml',
      workdir: home,
      started_at: Date.now(),
      owns_process: true,
    });
    const stop = await capsule('stop', SESSION);
    expect(stop).toMatchObject({
      code: 0,
      stdout: `canceled: ${TASK}\nrunning: sleep 30\nstopped: my-worker (${SESSION})\n`,
    });
    expect(stop.stderr).toContain('its door has no murmur.EndSession');
    expect(await exited).toBe('SIGTERM');
    expect(seen.every((s) => s.version === '1.0')).toBe(true);
    expect(seen.map((s) => s.method).sort()).toEqual([
      'CancelTask',
      'CancelTask',
      'murmur.EndSession',
      'murmur.StopSession',
    ]);
  });

  it('never signals a process that may host other sessions', { timeout: 60_000 }, async () => {
    const host = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const url = `http://127.0.0.1:${(door.address() as { port: number }).port}`;
      writeRunningFile(join(home, 'run'), {
        session_id: SESSION,
        name: 'my-worker',
        version: '0.1.0',
        url,
        pid: host.pid!,
        manifest_path: 'm.yaml',
        workdir: home,
        started_at: Date.now(),
      });
      const stop = await capsule('stop', SESSION);
      expect(stop.code).toBe(1);
      expect(stop.stderr).toContain(`its host (pid ${host.pid}) may run other sessions, so it was not signalled`);
      expect(host.exitCode).toBeNull();
      expect(host.signalCode).toBeNull();
    } finally {
      host.kill();
    }
  });
});
