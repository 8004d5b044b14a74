import { expect, test } from './fixtures';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';

// Run the example formation, fork the coordinator's task at turn 1 with an edited message, see the
// fork in the session's family and compare the two runs side by side; then fork the same task
// again from a turn in the inspector, where the recorded delegation turn is replayed.

test('fork a task with an edited message, see the family and the diff', async ({ page, studio }) => {
  const app = new StudioPage(page);
  const sessions = new SessionsPage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  const origin = (await studio.core.invoke('formation.get', {})).capsules.find(
    (c) => c.name === 'coordinator',
  )!.sessionId!;

  await sessions.open.click();
  await sessions.session(origin).click();
  await expect(sessions.events.getByText('Task 1: Write a note about tide pools')).toBeVisible();
  await sessions.dialog.getByRole('button', { name: 'Fork from here' }).click();
  await expect(sessions.forkForm).toBeVisible();
  await expect(sessions.forkForm.getByLabel('Fork message')).toHaveValue('Write a note about tide pools');
  await sessions.forkForm.getByLabel('Fork message').fill('Write a note about sea stars');
  await expect(sessions.forkForm.getByText('edited', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/fork-form.png' });
  await sessions.forkForm.getByRole('button', { name: 'Start fork' }).click();

  // The fork's session opens, saying where it came from.
  await expect(
    page.getByRole('status').filter({ hasText: `of …${origin.slice(-6)} at turn 1: COMPLETED` }),
  ).toBeVisible({ timeout: 20_000 });
  await expect(sessions.family).toContainText('Forked from');
  await expect(sessions.family).toContainText('at turn 1');
  await expect(sessions.events.getByText('Task 1: Write a note about sea stars')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/fork-family.png' });
  const fork = (await studio.core.invoke('sessions.family', { sessionId: origin })).forks[0].id;

  // The origin lists the fork in its family.
  await sessions.family.getByRole('button', { name: `Open session ${origin}` }).click();
  await expect(
    sessions.family.getByRole('list', { name: 'Forks' }).getByRole('button', { name: `Open session ${fork}` }),
  ).toBeVisible();

  // Compare: aligned by task and turn, the changed message marked, the same answer not.
  await sessions.family.getByRole('button', { name: `Compare with ${fork}` }).click();
  await expect(sessions.compare).toBeVisible();
  await expect(sessions.compareCell(1, 'Message', 'A')).toHaveText('Write a note about tide pools');
  await expect(sessions.compareCell(1, 'Message', 'B')).toHaveText('Write a note about sea stars');
  await expect(sessions.compareCell(1, 'Message', 'B')).toHaveAttribute('aria-label', /differs/);
  await expect(sessions.compareCell(1, 'Answer', 'B')).toContainText('gathered');
  await expect(sessions.compareCell(1, 'Answer', 'B')).not.toHaveAttribute('aria-label', /differs/);
  await expect(sessions.compareCell(1, 'Delegations', 'B')).toContainText('researcher: Find three facts');
  await expect(sessions.compareCell(1, 'turn 1', 'B')).toContainText('delegate_task');
  await page.screenshot({ path: 'test-results/screenshots/fork-compare.png' });
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await page.screenshot({ path: 'test-results/screenshots/fork-compare-dark.png' });
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');

  // From the inspector: fork at turn 2, so turn 1 (the delegations) replays the recording.
  await sessions.dialog.getByRole('button', { name: 'Close sessions' }).click();
  await app.canvas.select('coordinator');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await page
    .getByRole('button', { name: /^Show details of task / })
    .first()
    .click();
  await page.getByRole('button', { name: 'Fork from turn 2' }).click();
  await expect(sessions.forkForm).toBeVisible();
  await expect(sessions.forkForm.getByLabel('From turn')).toHaveValue('2');
  await expect(sessions.forkForm).toContainText('Turn 1 replays the recording');
  await page.screenshot({ path: 'test-results/screenshots/fork-form-turn.png' });
  await sessions.forkForm.getByRole('button', { name: 'Start fork' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `of …${origin.slice(-6)} at turn 2: COMPLETED` }),
  ).toBeVisible({ timeout: 20_000 });
  await sessions.dialog.getByRole('combobox', { name: 'Compare with' }).selectOption(origin);
  await expect(sessions.compareCell(1, 'turn 1', 'A')).toContainText('replayed from the recording');
  await expect(sessions.compare.getByRole('status')).toHaveText('No difference');
  await page.screenshot({ path: 'test-results/screenshots/fork-compare-same.png' });
});
