import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { allowOf, freePort, readManifest } from './helpers/workspace';
import { StudioPage } from './pages/studio';

// Edits while the formation runs are applied or announced, never silently ignored; the graph
// refuses what it cannot mean; notices and console history belong to their workspace.

test('a saved change to a running capsule says "restart to apply" until Restart', async ({ page, studio }) => {
  void studio;
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });

  await app.canvas.select('writer');
  await app.manifest.field('Description').fill('Drafts paragraphs, now shorter.');
  await app.manifest.save.click();
  await expect(app.manifest.status).toHaveText('Saved');
  const banner = page.getByRole('complementary').getByTestId('restart-to-apply');
  await expect(banner).toContainText('Restart to apply');
  await expect(app.canvas.capsule('writer').getByTestId('restart-to-apply')).toBeVisible();
  await app.screenshot('running-edits-1-restart-to-apply');

  await app.canvas
    .capsule('writer')
    .getByRole('button', { name: 'Restart writer to apply its saved manifest' })
    .click();
  await expect(app.canvas.capsule('writer').getByTestId('restart-to-apply')).toHaveCount(0, { timeout: 20_000 });
  await expect(banner).toHaveCount(0);
  await expect(app.stateOf('writer')).toHaveText('Idle');
});

test('a saved manifest that does not load offers no Restart, says what to fix, and the running session keeps going', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  const sessionOf = async () =>
    (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')?.sessionId;
  const before = await sessionOf();

  // A hand edit with a key the runtime does not know.
  const file = join(studio.workspace, 'capsules/writer.yaml');
  const broken = `${readFileSync(file, 'utf8').trimEnd()}\ndelay_msec: 5\n`;
  const line = broken.split('\n').length - 1;
  writeFileSync(file, broken);

  const onNode = app.canvas.capsule('writer').getByTestId('restart-to-apply');
  await expect(onNode).toHaveText(`Fix line ${line} of the manifest to restart`);
  await app.canvas.select('writer');
  const banner = page.getByRole('complementary').getByTestId('restart-to-apply');
  await expect(banner).toContainText(`capsules/writer.yaml:${line}`);
  await expect(banner).toContainText('delay_msec');
  await expect(banner).toContainText('keeps running the version it was launched with');
  await expect(page.getByRole('button', { name: 'Restart writer to apply its saved manifest' })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/running-edits-broken-manifest.png' });

  // The core refuses a restart of it too, and leaves the session running.
  await expect(studio.core.invoke('capsule.restart', { id: 'writer', when: 'now' })).rejects.toThrow(
    /manifest_invalid: Cannot restart writer: .*left as it is/,
  );
  await expect(app.stateOf('writer')).toHaveText('Idle');
  expect(await sessionOf()).toBe(before);
  const entry = await app.console.sendTo('writer', 'Still there?');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });

  // Fixed on disk: Restart is offered again.
  writeFileSync(
    file,
    broken.replace('delay_msec: 5\n', '').replace('Drafts short paragraphs.', 'Drafts paragraphs, fixed.'),
  );
  await expect(page.getByRole('button', { name: 'Restart writer to apply its saved manifest' }).first()).toBeVisible();
});

test('Restart on a busy capsule asks whether to wait for its task or restart now', async ({ page, studio }) => {
  const file = join(studio.workspace, 'capsules/writer.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      '    replies:\n',
      '    replies:\n      - when: stuck\n        turns:\n          - hang: true\n',
    ),
  );
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'stuck here', returnImmediately: true });
  await expect(app.stateOf('writer')).toHaveText('Busy');
  const sessionOf = async () =>
    (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')?.sessionId;
  const before = await sessionOf();

  await app.canvas.select('writer');
  await app.manifest.field('Description').fill('Drafts paragraphs, restarted.');
  await app.manifest.save.click();
  await app.canvas
    .capsule('writer')
    .getByRole('button', { name: 'Restart writer to apply its saved manifest' })
    .click();
  const ask = page.getByRole('dialog', { name: 'Restart writer?' });
  await expect(ask).toContainText('is working on a task');
  await app.screenshot('running-edits-1b-restart-asks');
  await ask.getByRole('button', { name: 'Restart now' }).click();

  await expect(app.canvas.capsule('writer').getByTestId('restart-to-apply')).toHaveCount(0, { timeout: 20_000 });
  await expect(app.stateOf('writer')).toHaveText('Idle');
  expect(await sessionOf()).not.toBe(before);
});

test("a worker's new port takes its edge along; no address node is drawn", async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.edge('coordinator', 'researcher')).toBeVisible();
  const port = await freePort();

  await app.canvas.select('researcher');
  await app.manifest.field('Internal port').fill(String(port));
  await app.manifest.save.click();
  await expect(app.manifest.status).toHaveText('Saved');

  await expect
    .poll(() =>
      allowOf(readManifest(studio.workspace, 'capsules/coordinator.yaml')).some((e) => e.endsWith(`:${port}`)),
    )
    .toBe(true);
  await expect(app.canvas.edge('coordinator', 'researcher')).toBeVisible();
  await expect(page.getByRole('group', { name: /^External address/ })).toHaveCount(0);
  await app.screenshot('running-edits-2-port-followed');
});

test('an edge dragged from a worker onto an orchestrator is refused, saying which way delegation goes', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  const before = await app.canvas.nodeIds();
  await app.canvas.dropFromPalette('Worker', { x: 180, y: 440 });
  await expect(page.locator('.react-flow__node')).toHaveCount(before.length + 1);
  const id = (await app.canvas.nodeIds()).find((n) => !before.includes(n))!;

  await app.canvas.connectBackwards(id, 'coordinator');

  await expect(app.notice(/delegation goes from an orchestrator to a worker/)).toBeVisible();
  await expect(app.canvas.edge('coordinator', id)).toHaveCount(0);
  expect(allowOf(readManifest(studio.workspace, 'capsules/coordinator.yaml'))).toHaveLength(2);
  await app.screenshot('running-edits-3-reverse-refused');
});

test('leaving a running workspace asks; kept capsules and each console history come back with it', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  const sent = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(sent.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });

  const fresh = join(mkdtempSync(join(tmpdir(), 'studio-other-')), 'other');
  await page.getByRole('button', { name: 'Open…' }).click();
  await page.getByLabel('Workspace folder').fill(fresh);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  const ask = page.getByRole('group', { name: 'Running capsules' });
  await expect(ask).toContainText('are running in');
  await app.screenshot('running-edits-4-leave-asks');
  await ask.getByRole('button', { name: 'Keep running' }).click();

  await expect(page.getByText('An empty formation')).toBeVisible();
  await expect(app.console.entries).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: '3 capsules keep running in a workspace you left' }),
  ).toBeVisible();
  await app.screenshot('running-edits-4b-kept-running');

  await page.getByRole('button', { name: 'Open…' }).click();
  await page.getByLabel('Workspace folder').fill(studio.workspace);
  await page.getByRole('button', { name: 'Open workspace' }).click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle');
  await expect(page.getByText(/keep running in a workspace you left/)).toHaveCount(0);
  await expect(app.console.entries).toHaveCount(1);
  await expect(app.console.entries.first()).toContainText('tide pools');
});

test('errors stay until dismissed, at most three stack, and they go with the workspace', async ({ page, studio }) => {
  void studio;
  const app = new StudioPage(page);
  await page.goto('/');
  for (let i = 1; i <= 4; i++) {
    await page.getByRole('button', { name: 'Open…' }).click();
    await page.getByLabel('Workspace folder').fill(`/nonexistent/place-${i}`);
    await page.getByRole('button', { name: 'Open workspace' }).click();
    await expect(app.notice(`place-${i}`)).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await expect(page.locator('.notice')).toHaveCount(3);
  await expect(app.notice('place-1')).toHaveCount(0);
  await app.screenshot('running-edits-5-three-errors');

  const fresh = join(mkdtempSync(join(tmpdir(), 'studio-other-')), 'other');
  await page.getByRole('button', { name: 'Open…' }).click();
  await page.getByLabel('Workspace folder').fill(fresh);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page.getByText('An empty formation')).toBeVisible();
  await expect(page.locator('.notice[data-kind="error"]')).toHaveCount(0);
});

test('the editor puts an unclosed quote at its line and shows the "did you mean" hint before Save', async ({
  page,
  studio,
}) => {
  void studio;
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  await app.manifest.showYaml();
  const original = await app.manifest.yamlText();
  const lines = original.split('\n');
  const versionLine = lines.findIndex((l) => l.startsWith('version:')) + 1;

  lines[versionLine - 1] = 'version: "0.1.0';
  await app.manifest.setYaml(lines.join('\n'));
  await expect(app.manifest.problemAtLine(versionLine)).toContainText('quote is not closed');

  lines[versionLine - 1] = 'versoin: "0.1.0"';
  await app.manifest.setYaml(lines.join('\n'));
  await expect(app.manifest.problemAtLine(versionLine)).toBeVisible();
  await expect(app.manifest.problems).toContainText('did you mean "version"?');
  await expect(app.manifest.status).toHaveText('Unsaved changes');
  await app.screenshot('running-edits-6-hint-while-typing');
});
