import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startFakeProvider, type FakeProvider } from '../drivers/fakes';
import { askedOfRun, gatherRun } from '../recording';
import { startOtlpReceiver, type OtlpReceiver } from '../telemetry/otlp-receiver.fixture';

// The whole journey of a recorded run, as a user does it with the CLI: a two-capsule formation on
// real model wires (local Anthropic and OpenAI fakes) runs with OpenTelemetry on and arrives as one
// trace; `capsule rehearse` makes it a rehearsal that the formation re-runs with no key and no
// network; `capsule fork` runs it again from a turn with an edited message; `--save-test` saves it
// as a test that `capsule test` passes, and fails with a diff once a manifest changes the answer.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const ANTHROPIC_KEY = 'sk-ant-journey-5e1f0c9a';
const OPENAI_KEY = 'sk-openai-journey-3b7d';
const TASK = 'How did the quarter go?';
const ANSWER = 'The quarter went well: revenue grew 12%.';
const DELEGATED = 'Read the quarterly report.';
const WORKER_SAYS = 'revenue grew 12%';

let root: string;
let home: string;
let ws: string;
let anthropic: FakeProvider;
let chat: FakeProvider;
let receiver: OtlpReceiver;

type Env = Record<string, string | undefined>;
/** The environment without any key or telemetry setting of the machine running the tests. */
function baseEnv(): Env {
  const env: Env = { ...process.env, CAPSULE_HOME: home };
  for (const k of Object.keys(env)) if (k.startsWith('OTEL_') || /_KEY$/.test(k)) delete env[k];
  return env;
}
const online = (): Env => ({ ...baseEnv(), ANTHROPIC_KEY, OPENAI_KEY });

function cli(env: Env, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) =>
    execFile(process.execPath, [BIN, ...args], { env, timeout: 30_000 }, (err, stdout, stderr) =>
      ok({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** `capsule serve --workspace DIR` until its capsules are up: their doors and sessions by id. */
async function serve(dir: string, env: Env) {
  const child = spawn(process.execPath, [BIN, 'serve', '--workspace', dir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b) => (stderr += String(b)));
  const capsules: Record<string, { url: string; session: string }> = {};
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`capsule serve exited ${code}: ${stderr}`)));
    lines.on('line', (l) => {
      const m = /^capsule: (\S+) (http\S+) \(session (ses_[0-9a-f]+)\)$/.exec(l);
      if (m) capsules[m[1]] = { url: m[2], session: m[3] };
      if (capsules.orchestrator && capsules.worker) ok();
    });
  });
  return {
    capsules,
    async ask(text: string): Promise<string> {
      const body = {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: { messageId: `m-${Date.now()}`, role: 'ROLE_USER', parts: [{ text }] },
          configuration: { returnImmediately: false },
        },
      };
      const res = await fetch(capsules.orchestrator.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(body),
      });
      const task = (
        (await res.json()) as {
          result: { task: { status: { state: string }; artifacts?: { parts: { text?: string }[] }[] } };
        }
      ).result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      return String(task.artifacts?.[0]?.parts[0]?.text ?? '');
    },
    stop(): Promise<number | null> {
      child.removeAllListeners('exit');
      return new Promise((ok) => {
        child.once('exit', ok);
        child.kill('SIGTERM');
      });
    },
  };
}

/** A loopback port free right now, for the worker's pinned door. */
function freePort(): Promise<number> {
  return new Promise((ok) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => ok(port));
    });
  });
}

/** Who was asked what, and the answers, of a recorded formation run (its entry capsule's trace). */
async function askedOf(session: string) {
  return askedOfRun(await gatherRun(join(home, 'records', session, 'trace.jsonl'), join(home, 'records')));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'capsule-journey-'));
  home = join(root, 'home');
  ws = join(root, 'ws');
  anthropic = await startFakeProvider('anthropic', { key: ANTHROPIC_KEY });
  chat = await startFakeProvider('chat', { key: OPENAI_KEY });
  receiver = await startOtlpReceiver();
  const manifest = (id: string, body: Record<string, unknown>) => {
    mkdirSync(join(ws, id), { recursive: true });
    writeFileSync(join(ws, id, 'murmur.yaml'), stringify({ name: id, version: '0.1.0', ...body }));
  };
  // The edge orchestrator → worker is the permission: the worker's pinned door in the allow list.
  const workerPort = await freePort();
  manifest('orchestrator', {
    capabilities: { network: { allow: [`127.0.0.1:${workerPort}`] } },
    artifacts: [
      {
        name: 'murmur/driver-anthropic',
        runtime: 'driver',
        gateway: { endpoint: anthropic.url, api_key: '${ANTHROPIC_KEY}' },
      },
    ],
    inference: {
      transport: 'http',
      model: 'claude-sonnet-4-6',
      driver: { artifact: 'murmur/driver-anthropic' },
      max_tokens: 512,
    },
  });
  manifest('worker', {
    artifacts: [
      { name: 'murmur/driver-openai', runtime: 'driver', gateway: { endpoint: chat.url, api_key: '${OPENAI_KEY}' } },
    ],
    inference: { transport: 'http', model: 'gpt-4.1', driver: { artifact: 'murmur/driver-openai' } },
    network: { internal_port: workerPort },
    exports: { peer_tasks: { accept: true } },
  });
  writeFileSync(
    join(ws, 'formation.yaml'),
    stringify({
      capsules: ['orchestrator', 'worker'].map((id) => ({ id, manifest: `${id}/murmur.yaml` })),
      remotes: [],
    }),
  );
});

afterAll(async () => {
  await Promise.all([anthropic?.dispose(), chat?.dispose(), receiver?.close()]);
  rmSync(root, { recursive: true, force: true });
});

it('records a real-model formation run, rehearses it offline, forks it, tests it in CI and exports it as one trace', async () => {
  // 1. Record: the orchestrator delegates to the worker in its first turn, then answers.
  anthropic.reply(
    {
      turn: {
        text: 'Asking the worker.',
        toolCalls: [{ id: 'toolu_1', name: 'delegate_task', arguments: { to: 'worker', text: DELEGATED } }],
        tokensIn: 90,
        tokensOut: 20,
      },
    },
    { turn: { text: ANSWER, tokensIn: 200, tokensOut: 12 } },
  );
  chat.reply({ turn: { text: WORKER_SAYS, tokensIn: 40, tokensOut: 5 } });
  const otel = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'journey',
  };
  const live = await serve(ws, { ...online(), ...otel });
  expect(await live.ask(TASK)).toBe(ANSWER);
  expect(await live.stop()).toBe(0);
  const orch = live.capsules.orchestrator.session;
  expect(anthropic.requests).toHaveLength(2);
  expect(chat.requests).toHaveLength(1);
  const recorded = await askedOf(orch);
  expect(recorded).toEqual([
    {
      text: TASK,
      answer: ANSWER,
      exitStatus: 'ok',
      delegations: [{ from: 'orchestrator', to: 'worker', text: DELEGATED, answer: WORKER_SAYS }],
    },
  ]);

  // 2. One trace in the OTLP backend: both capsules' spans, every parent among them, the worker's
  // task under the orchestrator's delegation (linked by the A2A hop's traceparent).
  const spans = receiver.spans;
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  expect(spans.filter((s) => !s.parentSpanId).map((s) => s.name)).toEqual(['invoke_agent orchestrator']);
  expect(spans.every((s) => !s.parentSpanId || byId.has(s.parentSpanId))).toBe(true);
  const ancestors = (s: (typeof spans)[number]) => {
    const out: string[] = [];
    for (let p = byId.get(s.parentSpanId); p; p = byId.get(p.parentSpanId)) out.push(p.name);
    return out;
  };
  const worker = spans.find((s) => s.name === 'invoke_agent worker')!;
  expect(worker).toBeDefined();
  expect(ancestors(worker)).toContain('invoke_agent orchestrator');
  expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(['chat claude-sonnet-4-6', 'chat gpt-4.1']));
  expect(Buffer.concat(receiver.bodies).toString()).not.toContain(ANTHROPIC_KEY);

  // 3. Rehearse: a workspace with a script for every capsule that took part.
  const rehearsal = join(root, 'rehearsal');
  const made = await cli(baseEnv(), 'rehearse', '--from', orch, '--no-delay', '--out', rehearsal);
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  expect(made.stdout).toContain(`capsule: orchestrator ${join(rehearsal, 'orchestrator', 'murmur.yaml')}`);
  expect(made.stdout).toContain(`capsule: worker ${join(rehearsal, 'worker', 'murmur.yaml')}`);
  for (const id of ['orchestrator', 'worker']) {
    const text = readFileSync(join(rehearsal, id, 'murmur.yaml'), 'utf8');
    expect(text).toContain('rehearsal');
    expect(text).not.toMatch(/api_key|endpoint|_KEY/);
  }

  // 4. Re-run the formation offline: no key, the model endpoints closed; the same answer and delegations.
  await Promise.all([anthropic.dispose(), chat.dispose()]);
  const offline = await serve(rehearsal, baseEnv());
  expect(await offline.ask(TASK)).toBe(ANSWER);
  expect(await offline.stop()).toBe(0);
  expect(await askedOf(offline.capsules.orchestrator.session)).toEqual(recorded);

  // 5. Fork at turn 2 with an edited message: turn 1 replays, the real model answers turn 2 and sees the edit.
  anthropic = await startFakeProvider('anthropic', { key: ANTHROPIC_KEY });
  chat = await startFakeProvider('chat', { key: OPENAI_KEY });
  // The manifests named the first endpoints: point them at the restarted fakes.
  for (const [id, fake] of [
    ['orchestrator', anthropic],
    ['worker', chat],
  ] as const) {
    const file = join(ws, id, 'murmur.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/endpoint: http:\/\/\S+/, `endpoint: ${fake.url}`));
  }
  anthropic.reply({ turn: { text: 'The half went well.', tokensIn: 210, tokensOut: 6 } });
  chat.reply({ turn: { text: WORKER_SAYS, tokensIn: 40, tokensOut: 5 } });
  const edited = 'How did the half go?';
  const forked = await cli(online(), 'fork', '--from', orch, '--turn', '2', '--message', edited, '--workspace', ws);
  expect(forked.stderr).toBe('');
  expect(forked.code).toBe(0);
  expect(forked.stdout).toContain('The half went well.');
  const forkId = /^fork: (ses_[0-9a-f]{32}) of /m.exec(forked.stdout)![1];
  const start = JSON.parse(readFileSync(join(home, 'records', forkId, 'trace.jsonl'), 'utf8').split('\n')[0]);
  expect(start.forked_from).toMatchObject({ session_id: orch, turn: 2, driver: 'real', edited: true });
  // Turn 1's delegation ran again (the worker on its real driver), and turn 2 went to the model.
  expect(chat.requests).toHaveLength(1);
  expect(anthropic.requests).toHaveLength(1);
  expect(JSON.stringify(anthropic.requests[0].body.messages)).toContain(edited);
  expect(JSON.stringify(anthropic.requests[0].body.messages)).not.toContain(TASK);

  // 6. Save as a test; `capsule test` passes offline, then fails with a diff once the worker's
  // manifest no longer accepts peer tasks (the delegation's answer changes).
  await Promise.all([anthropic.dispose(), chat.dispose()]);
  const saved = await cli(
    baseEnv(),
    'rehearse',
    '--from',
    orch,
    '--no-delay',
    '--save-test',
    'quarter',
    '--workspace',
    ws,
  );
  expect(saved.stderr).toBe('');
  expect(saved.stdout).toBe(`test: ${join(ws, 'tests', 'quarter.yaml')}\n`);
  const pass = await cli(baseEnv(), 'test', '--workspace', ws);
  expect(pass.stdout).toMatch(/^PASS {2}quarter {2}.*\n1 passed, 0 failed\n$/);
  expect(pass.code).toBe(0);
  const workerManifest = join(ws, 'worker', 'murmur.yaml');
  writeFileSync(workerManifest, readFileSync(workerManifest, 'utf8').replace(/exports:\n(\s+.*\n)+/, ''));
  // A failing test keeps its run's records in the temporary folder: keep them inside this test's.
  const fail = await cli({ ...baseEnv(), TMPDIR: root }, 'test', '--workspace', ws);
  expect(fail.code).toBe(1);
  expect(fail.stdout).toContain('FAIL  quarter');
  expect(fail.stdout).toContain('task 1: delegations[0].answer');
  expect(fail.stdout).toContain(`- "${WORKER_SAYS}"`);
}, 60_000);
