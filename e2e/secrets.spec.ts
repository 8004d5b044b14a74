import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { StudioPage } from './pages/studio';
import { SecretsPage } from './pages/secrets';
import { expectNotInTraces, expectOnlyIn, recordFrames } from './helpers/secret-trail';
import { copyExampleWorkspace, startStudio, type StudioProcess } from './support/studio';

// A secret set in the Studio reaches the capsule whose manifest names it (${NAME}), and nothing
// else: not the trace, not any WebSocket frame but the one that set it, not the page.

const VALUE = `sk-e2e-${Date.now().toString(36)}-9f3a`;
let server: StudioProcess | undefined;
let workspace: string | undefined;
test.afterEach(async () => {
  await server?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

test('set a secret in the UI, launch a capsule whose manifest uses it, and find the value nowhere', async ({
  page,
}) => {
  workspace = await copyExampleWorkspace();
  const writer = join(workspace, 'capsules', 'writer.yaml');
  writeFileSync(
    writer,
    readFileSync(writer, 'utf8').replace(
      'description: Drafts short paragraphs.',
      'description: Drafts short paragraphs.\nartifacts:\n  - name: notes-api\n    gateway:\n      endpoint: http://127.0.0.1:9/\n      api_key: ${WRITER_API_KEY}',
    ),
  );
  server = await startStudio({ workspace });

  const frames = recordFrames(page);
  const app = new StudioPage(page);
  await page.goto(server.url);
  await expect(app.stateOf('writer')).toHaveText('Stopped');

  const secrets = new SecretsPage(page);
  await secrets.open.click();
  await expect(secrets.dialog).toContainText('readable only by you');
  await secrets.set('WRITER_API_KEY', VALUE);
  await expect(secrets.status).toHaveText('Saved WRITER_API_KEY in default. Its value is not shown again.');
  await expect(secrets.value).toHaveValue('');
  await expect(secrets.row('WRITER_API_KEY')).toContainText('default');
  await page.keyboard.press('Escape');

  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('writer', 'Draft a note about tide pools');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await app.stopAll.click();
  await expect(app.stateOf('writer')).toHaveText('Stopped', { timeout: 20_000 });

  // The value crossed once, in the secrets.set call, and never came back.
  await expectOnlyIn(page, frames, VALUE, 'secrets.set');
  expectNotInTraces(server.home, VALUE);
  // Kept in a file only the user can read.
  expect(statSync(join(server.home, 'studio', 'secrets.json')).mode & 0o777).toBe(0o600);
});
