import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.fixture';

// `capsule run` with OTEL_EXPORTER_OTLP_ENDPOINT set: the session's spans reach the collector,
// including those still queued when the process ends (it flushes before exiting).

const BIN = resolve(__dirname, '../../bin/capsule.js');
let receiver: OtlpReceiver | undefined;
let home: string | undefined;
afterEach(async () => {
  await receiver?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  receiver = home = undefined;
});

it('exports a CLI session and flushes what is queued before the process exits', async () => {
  receiver = await startOtlpReceiver();
  home = mkdtempSync(join(tmpdir(), 'otel-cli-'));
  const manifest = join(home, 'murmur.yaml');
  writeFileSync(
    manifest,
    'name: cli-worker\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
  );
  const child = spawn(process.execPath, [BIN, 'run', '--manifest', manifest, '--port', '0'], {
    env: {
      ...process.env,
      CAPSULE_HOME: home,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'cli-test',
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((ok) =>
    lines.on('line', (l) => l.startsWith('capsule: url ') && ok(l.slice('capsule: url '.length))),
  );
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
    }),
  });
  const task = ((await res.json()) as { result: { task: { id: string; status: { state: string } } } }).result.task;
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  // A batch would not go out for ten minutes: only the flush at exit can have sent these.
  expect(receiver.spans).toEqual([]);
  const code = await new Promise<number | null>((ok) => {
    child.once('exit', ok);
    child.kill('SIGTERM');
  });
  expect(code).toBe(0);
  expect(receiver.spans.map((s) => s.name).sort()).toEqual(['chat rehearsal', 'invoke_agent cli-worker']);
  expect(receiver.spans.every((s) => s.resource['service.name'] === 'cli-test' && s.traceId === task.id.slice(4))).toBe(
    true,
  );
}, 60_000);
