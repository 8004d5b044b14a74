import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startOtlpReceiver, type OtlpReceiver } from '../src-main/telemetry/otlp-receiver.fixture';
import { StudioPage } from './pages/studio';
import { TelemetryPage } from './pages/telemetry';
import { expectNotInTraces, expectOnlyIn, recordFrames } from './helpers/secret-trail';
import { copyExampleWorkspace, startStudio, type StudioProcess } from './support/studio';

// OpenTelemetry set in the Studio: the formation launched afterwards arrives at a local OTLP
// receiver as one trace, with the auth header; the header's value crosses the WebSocket once (in
// the call that set it) and is in no trace, span or page.

const TOKEN = `otlp-e2e-${Date.now().toString(36)}-77b2`;
let server: StudioProcess | undefined;
let receiver: OtlpReceiver | undefined;
let workspace: string | undefined;
test.afterEach(async () => {
  await server?.close();
  await receiver?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

test('set OpenTelemetry in the Studio, run the formation, and the spans arrive with the secret header it never shows', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  receiver = await startOtlpReceiver();
  workspace = await copyExampleWorkspace();
  server = await startStudio({ workspace });
  const frames = recordFrames(page);
  const app = new StudioPage(page);
  await page.goto(server.url);
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');

  const otel = new TelemetryPage(page);
  await otel.openFromMenu();
  await expect(otel.status).toContainText('Sessions launched now export nothing.');
  await otel.enabled.check();
  await otel.endpoint.fill(receiver.url);
  await otel.protocol.selectOption('http/json');
  await otel.serviceName.fill('studio-e2e');
  await otel.header('authorization', `Bearer ${TOKEN}`);
  await otel.save.click();
  await expect(otel.dialog.getByRole('status')).toContainText('Sessions launched from now on use these settings');
  await expect(otel.status).toContainText(`export to ${receiver.url}/v1/traces`);
  await expect(otel.status).toContainText('headers authorization');
  await expect(otel.dialog.getByLabel('Value of authorization')).toHaveValue('');
  await expect(otel.dialog.getByLabel('Value of authorization')).toHaveAttribute('placeholder', /kept/);
  await page.keyboard.press('Escape');

  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('coordinator', 'Plan a short trip');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect
    .poll(() => receiver!.spans.filter((s) => s.name.startsWith('invoke_agent ')).length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(3);
  const tasks = receiver.spans.filter((s) => s.name.startsWith('invoke_agent '));
  expect(new Set(tasks.map((s) => s.traceId)).size).toBe(1);
  expect(receiver.spans.every((s) => s.resource['service.name'] === 'studio-e2e')).toBe(true);
  expect(receiver.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);

  await otel.openFromMenu();
  await expect(otel.counts).toContainText(/[1-9]\d* spans sent · \d+ waiting · 0 dropped/);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `/tmp/studio-tools-otel-${scheme}.png` });
  }
  await page.keyboard.press('Escape');
  await app.stopAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Stopped', { timeout: 20_000 });

  // The value crossed once, in the telemetry.configure call, and went nowhere else.
  await expectOnlyIn(page, frames, TOKEN, 'telemetry.configure');
  expect(Buffer.concat(receiver.bodies).toString('utf8')).not.toContain(TOKEN);
  expectNotInTraces(server.home, TOKEN);
});
