import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';
import { TestsPage } from './pages/tests';

// Esc on a long command: a saved test whose coordinator takes 30 s to answer runs from the Tests
// panel; the Studio shows it with "Esc to cancel", Esc cancels it, the panel stays open and says
// so, and the core has stopped the run (its one-at-a-time runner takes another at once).

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
