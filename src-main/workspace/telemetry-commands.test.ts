import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../telemetry/otlp-receiver.fixture';
import { createTestStudio, type TestStudio } from './test-studio';

// OpenTelemetry set in the Studio: the sessions it launches afterwards export their spans to the
// endpoint, with the header whose value sits in the secret store; the value is in no answer,
// event or trace. The Studio's own OTEL_* environment, when it sets the export, wins.

const TOKEN = 'otlp-studio-token-8c41';
let studio: TestStudio | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await studio?.dispose();
  await receiver?.close();
  studio = receiver = undefined;
});

describe('telemetry settings', () => {
  it('exports the spans of sessions launched after the change, with the secret header, and shows the counts', async () => {
    receiver = await startOtlpReceiver();
    studio = await createTestStudio();
    const { core } = studio;
    expect(await core.invoke('telemetry.get', {})).toMatchObject({
      enabled: false,
      active: null,
      environment: [],
      stats: null,
    });

    const set = await core.invoke('telemetry.configure', {
      enabled: true,
      endpoint: receiver.url,
      protocol: 'http/json',
      serviceName: 'studio-test',
      headers: [{ name: 'authorization', value: `Bearer ${TOKEN}` }],
    });
    expect(set).toMatchObject({
      enabled: true,
      headers: [{ name: 'authorization', set: true }],
      active: {
        source: 'studio',
        url: `${receiver.url}/v1/traces`,
        protocol: 'http/json',
        serviceName: 'studio-test',
        headers: ['authorization'],
      },
    });
    expect((await core.invoke('secrets.list', {})).secrets.map((s) => s.name)).toContain('OTEL_HEADER_AUTHORIZATION');

    expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
    const task = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    for (let i = 0; i < 200 && !receiver.spans.some((s) => String(s.name).startsWith('invoke_agent coordinator')); i++)
      await new Promise((r) => setTimeout(r, 50));
    const spans = receiver.spans;
    expect(spans.every((s) => s.resource['service.name'] === 'studio-test')).toBe(true);
    const root = spans.find((s) => s.name.startsWith('invoke_agent coordinator'))!;
    expect(root).toBeDefined();
    // The workers' task spans arrive in the coordinator's trace.
    for (let i = 0; i < 200 && spans.filter((s) => s.name.startsWith('invoke_agent ')).length < 3; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(new Set(spans.filter((s) => s.name.startsWith('invoke_agent ')).map((s) => s.traceId))).toEqual(
      new Set([root.traceId]),
    );
    expect(receiver.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const view = await core.invoke('telemetry.get', {});
    expect(view.stats!.exported).toBeGreaterThan(0);
    expect(view.stats!.dropped).toBe(0);

    // The value is in no answer, event, span or trace.
    await core.invoke('formation.stop', {});
    expect(JSON.stringify([set, view, studio.events])).not.toContain(TOKEN);
    expect(Buffer.concat(receiver.bodies).toString('utf8')).not.toContain(TOKEN);
    const records = join(studio.home, 'records');
    const traces = readdirSync(records, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('trace.jsonl'));
    expect(traces.length).toBeGreaterThanOrEqual(3);
    for (const t of traces) expect(readFileSync(join(records, t), 'utf8')).not.toContain(TOKEN);

    // Headers left out are deleted with their value; export can be turned off again.
    const off = await core.invoke('telemetry.configure', { enabled: false, headers: [] });
    expect(off).toMatchObject({ enabled: false, headers: [], active: null });
    expect((await core.invoke('secrets.list', {})).secrets.map((s) => s.name)).not.toContain(
      'OTEL_HEADER_AUTHORIZATION',
    );
  });

  it('lets the Studio’s own OTEL_* environment decide when it sets the export', async () => {
    studio = await createTestStudio({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SERVICE_NAME: 'from-env' },
    });
    const v = await studio.core.invoke('telemetry.configure', {
      enabled: true,
      endpoint: 'http://127.0.0.1:4318',
      serviceName: 'from-studio',
    });
    expect(v.environment).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT']);
    expect(v.active).toMatchObject({
      source: 'environment',
      url: 'http://127.0.0.1:9/v1/traces',
      serviceName: 'from-env',
    });
    await expect(studio.core.invoke('telemetry.configure', { endpoint: 'ftp://x' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(
      studio.core.invoke('telemetry.configure', { headers: [{ name: 'x-a', value: 'one\r\nx-b: two' }] }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
