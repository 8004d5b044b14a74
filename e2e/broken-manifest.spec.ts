import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// A manifest that does not load is told plainly, and never makes a running capsule look dead:
// its node keeps showing what runs, and a delegation to a stopped one says why it cannot start.

test('a running capsule whose file stops parsing keeps showing what runs, with one plain mark', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('researcher')).toHaveText('Idle', { timeout: 20_000 });

  const file = join(studio.workspace, 'capsules/researcher.yaml');
  const broken = `${readFileSync(file, 'utf8').trimEnd()}\n  bad: [unclosed\n`;
  writeFileSync(file, broken);

  const node = app.canvas.capsule('researcher');
  await expect(node.getByTestId('restart-to-apply')).toContainText(/Fix line \d+ of the manifest to restart/);
  // What runs, from the running session: a rehearsal worker, still Idle.
  await expect(node.locator('.capsule-node-role')).toHaveText(/worker/i);
  await expect(node.locator('.rehearsal-badge')).toBeVisible();
  await expect(app.stateOf('researcher')).toHaveText('Idle');
  // One mark on the node, not the problem list too: the node barely grows.
  await expect(node.getByRole('list', { name: 'Manifest problems in researcher' })).toHaveCount(0);
  // Its bottom handle stays clear of the node below it.
  const mine = (await node.boundingBox())!;
  const below = (await app.canvas.capsule('writer').boundingBox())!;
  expect(mine.y + mine.height + 12).toBeLessThan(below.y);
  await app.canvas.select('researcher');
  const aside = page.getByRole('complementary');
  await expect(aside).toContainText('a [ list is not closed with ]');
  await expect(aside).not.toContainText('sufficiently indented');
  await page.screenshot({ path: '/tmp/broken-running-node.png' });
});

test('a delegation to a stopped capsule whose manifest does not load says so, and Launch all says it once', async ({
  page,
  studio,
}) => {
  const file = join(studio.workspace, 'capsules/researcher.yaml');
  writeFileSync(file, `${readFileSync(file, 'utf8').trimEnd()}\nmystery_field: 3\n`);
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  const notice = page.locator('.notice').filter({ hasText: 'researcher' });
  await expect(notice).toContainText('Cannot launch researcher');
  await expect(notice).not.toContainText('did not launch');

  const entry = await app.console.sendTo('coordinator', 'Plan a short trip');
  await expect(entry).toContainText('capsule "researcher" is in the formation but not running', { timeout: 20_000 });
  await expect(entry).toContainText('mystery_field');
  await expect(entry).not.toContainText('unknown capsule');
  // The example's coordinator says only one worker answered, not that both did.
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect(entry).toContainText('Only one worker answered');
  await expect(entry).not.toContainText('Both workers answered');
  await page.screenshot({ path: '/tmp/broken-delegation.png' });
});
