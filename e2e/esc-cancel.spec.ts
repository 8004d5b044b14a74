import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { holdCommands } from './helpers/held-commands';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';
import { TestsPage } from './pages/tests';
import { ExportPage } from './pages/tools';

// Esc on a long command: a saved test whose coordinator takes 30 s to answer runs from the Tests
// panel; the Studio shows it with "Esc to cancel", Esc cancels it, the panel stays open and says
// so, and the core has stopped the run (its one-at-a-time runner takes another at once).
// The Kubernetes export, the sessions browser's loads and a fork are made slow by holding their
// command back on the way to the core (helpers/held-commands.ts): each shows in the bar, Esc tells
// the core (the page sends the cancel), the screen says it stopped, and the same action works next.

const SLOW_TEST =
  'entry: coordinator\nscripts:\n  coordinator:\n    delay_ms: 30000\n    replies:\n      - turns:\n          - text: late\ntasks:\n  - text: take your time\n';
const QUICK_TEST =
  'entry: coordinator\nscripts:\n  coordinator:\n    replies:\n      - turns:\n          - text: done\ntasks:\n  - text: be quick\n    expect:\n      answer: done\n';

test('Esc cancels a slow test run, and the core stops it', async ({ page, studio }) => {
  test.setTimeout(60_000);
  const { core, workspace } = studio;
  mkdirSync(join(workspace, 'tests'), { recursive: true });
  writeFileSync(join(workspace, 'tests', 'slow.yaml'), SLOW_TEST);
  writeFileSync(join(workspace, 'tests', 'quick.yaml'), QUICK_TEST);

  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  const tests = new TestsPage(page);
  await tests.openFromMenu();
  await tests.run('slow');
  const bar = page.getByRole('status', { name: 'Long command' });
  await expect(bar).toContainText('Running test slow');
  await expect(bar).toContainText('Esc');
  await expect(tests.stateOf('slow')).toHaveText('running…');
  await page.screenshot({ path: test.info().outputPath('long-command.png') });

  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();
  // The key went to the command, not the dialog.
  await expect(tests.dialog).toBeVisible();
  await expect(tests.stateOf('slow')).toHaveText('error');
  await expect(tests.detail.getByRole('alert')).toContainText('canceled');

  // The core stopped the run: its one-at-a-time runner takes a quick test at once instead of
  // refusing it as "running" for the slow one's 30 s.
  await expect
    .poll(
      () =>
        core.invoke('tests.run', { name: 'quick' }).then(
          (r) => (r.passed ? 'passed' : 'failed'),
          (err: Error) => err.message,
        ),
      { timeout: 5_000 },
    )
    .toBe('passed');
});

const bar = (page: import('@playwright/test').Page) => page.getByRole('status', { name: 'Long command' });

test('Esc cancels a slow Kubernetes export; the dialog stays and exports next time', async ({ page }) => {
  const slow = await holdCommands(page);
  const out = join(mkdtempSync(join(tmpdir(), 'e2e-k8s-esc-')), 'kubernetes');
  try {
    const app = new StudioPage(page);
    const dialog = new ExportPage(page);
    await page.goto('/');
    await expect(app.canvas.capsule('coordinator')).toBeVisible();
    await dialog.openFromMenu();
    await dialog.folder.fill(out);
    await expect(dialog.file('deployment-coordinator.yaml')).toBeVisible();

    slow.held.add('deploy.write');
    await dialog.export.click();
    await expect(bar(page)).toContainText('Writing the Kubernetes files');
    await page.screenshot({ path: 'test-results/screenshots/esc-export.png' });
    await page.keyboard.press('Escape');
    await expect(bar(page)).toBeHidden();
    await expect(dialog.dialog).toBeVisible();
    await expect(dialog.dialog.getByRole('alert')).toContainText('Export canceled');
    expect(slow.canceled).toEqual(['deploy.write']);

    slow.held.clear();
    await dialog.export.click();
    await expect(dialog.written).toContainText(`to ${out}`);
    expect(readdirSync(out)).toContain('kustomization.yaml');
  } finally {
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
});

test('Esc stops a slow sessions load; the browser says so and loads on the next search', async ({ page }) => {
  const slow = await holdCommands(page);
  const app = new StudioPage(page);
  const sessions = new SessionsPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();

  slow.held.add('sessions.list');
  await sessions.open.click();
  await expect(bar(page)).toContainText('Reading the sessions');
  await expect(sessions.dialog.getByText('Searching…')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(bar(page)).toBeHidden();
  // The key went to the load, not the browser.
  await expect(sessions.dialog).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Stopped reading the sessions.' })).toBeVisible();
  await expect(sessions.dialog.getByText('Searching…')).toBeHidden();
  expect(slow.canceled).toEqual(['sessions.list']);

  slow.held.clear();
  await sessions.search.fill('nothing like this');
  await expect(sessions.dialog.getByText('0 sessions')).toBeVisible();
});

test('Esc on a fork waiting to start stops it; the form stays and forks next time', async ({ page, studio }) => {
  test.setTimeout(90_000);
  const slow = await holdCommands(page);
  const app = new StudioPage(page);
  const sessions = new SessionsPage(page);
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  const origin = (await studio.core.invoke('formation.get', {})).capsules.find(
    (c) => c.name === 'coordinator',
  )!.sessionId!;
  await sessions.open.click();
  await sessions.session(origin).click();
  await sessions.dialog.getByRole('button', { name: 'Fork from here' }).click();
  await expect(sessions.forkForm).toBeVisible();

  slow.held.add('sessions.fork');
  await sessions.forkForm.getByRole('button', { name: 'Start fork' }).click();
  await expect(bar(page)).toContainText('Forking the task');
  await page.keyboard.press('Escape');
  await expect(bar(page)).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Stopped waiting for the fork' })).toBeVisible();
  await expect(sessions.forkForm).toBeVisible();
  expect(slow.canceled).toEqual(['sessions.fork']);
  expect((await studio.core.invoke('sessions.family', { sessionId: origin })).forks).toEqual([]);

  slow.held.clear();
  await sessions.forkForm.getByRole('button', { name: 'Start fork' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `of …${origin.slice(-6)} at turn 1: COMPLETED` }),
  ).toBeVisible({ timeout: 20_000 });
  expect((await studio.core.invoke('sessions.family', { sessionId: origin })).forks).toHaveLength(1);
});
