import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createExposureStore } from '../gateway';

// The process shape of a formation deployed on a cluster, on loopback: each capsule in its own
// `capsule run` with its door on a chosen interface (`--host`; 127.0.0.2 here, 0.0.0.0 in a pod)
// and its peers named by URL (`--peer`, as the Services' names), and the gateway alone
// (`serve --capsule-url`) in front of them, with the exposure read from its data folder.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-cluster-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

/** Starts the CLI and resolves with the first stdout line matching `pattern` (its first group). */
function start(args: string[], pattern: RegExp): Promise<string> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, CAPSULE_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const err: string[] = [];
  child.stderr!.on('data', (d) => err.push(String(d)));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no line matching ${pattern}: ${err.join('')}`)), 20_000);
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const m = pattern.exec(l);
      if (m) {
        clearTimeout(timer);
        done(m[1]);
      }
    });
  });
}

const rpc = (url: string, method: string, params: unknown, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });

const manifest = (name: string, extra: string) => `name: ${name}
version: "0.1.0"
inference:
  transport: embedded
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
${extra}`;

describe('the cluster shape: capsule run --host --peer, serve --capsule-url', () => {
  it('a worker on its own interface, an orchestrator delegating by name, the gateway in front', async () => {
    writeFileSync(join(home, 'worker.yaml'), manifest('worker', 'exports:\n  peer_tasks:\n    accept: true\n'));
    const workerUrl = await start(
      ['run', '--manifest', join(home, 'worker.yaml'), '--port', '0', '--host', '127.0.0.2'],
      /^capsule: url (\S+)$/,
    );
    expect(workerUrl).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    const authority = new URL(workerUrl).host;
    const orchestrator = manifest(
      'orch',
      `  rehearsal:\n    replies:\n      - turns:\n          - tool_calls:\n              - name: delegate_task\n                arguments: { to: helper, text: "hello worker" }\n          - text: "done"\ncapabilities:\n  network:\n    allow: [ "${authority}" ]\n`,
    );
    writeFileSync(join(home, 'orch.yaml'), orchestrator);
    const orchUrl = await start(
      ['run', '--manifest', join(home, 'orch.yaml'), '--port', '0', '--peer', `helper=${workerUrl}`],
      /^capsule: url (\S+)$/,
    );

    const dataDir = join(home, 'gateway');
    const store = createExposureStore(dataDir);
    const { token } = store.enable('orch');
    store.dispose();
    const gatewayUrl = await start(
      ['serve', '--capsule-url', `orch=${orchUrl}`, '--gateway-port', '0', '--data', dataDir],
      /^gateway: (\S+)$/,
    );
    const exposed = `${gatewayUrl}/a2a/capsules/orch/`;

    const message = { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'go' }] } };
    expect((await rpc(exposed, 'SendMessage', message, 'wrong')).status).toBe(401);
    const answer = (await (await rpc(exposed, 'SendMessage', message, token)).json()) as any;
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    // The worker got the orchestrator's task: the name resolved through --peer to its door.
    const listed = (await (await rpc(workerUrl, 'ListTasks', { historyLength: 10 })).json()) as any;
    expect(listed.result.tasks.map((t: any) => t.history?.[0]?.parts?.[0]?.text)).toContain('hello worker');
  }, 60_000);
});
