import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';

// Run the example formation, then find the orchestrator's session again in the sessions
// browser by a word of its answer, read its trace, and see on the timeline which worker tasks its
// task caused.

test('find a session by its answer, read its trace and its timeline', async ({ page, studio }) => {
  const app = new StudioPage(page);
  const sessions = new SessionsPage(page);
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect(entry.getByLabel('Answer')).toContainText('gathered');
  const formation = await studio.core.invoke('formation.get', {});
  const sessionId = formation.capsules.find((c) => c.name === 'coordinator')!.sessionId!;

  await sessions.open.click();
  await expect(sessions.dialog).toBeVisible();
  await sessions.search.fill('gathered');
  await expect(sessions.session(sessionId)).toBeVisible();
  // A word that no session holds finds nothing.
  await sessions.search.fill('zyzzyvaquux');
  await expect(sessions.dialog.getByText('0 sessions')).toBeVisible();
  await sessions.search.fill('gathered');
  await sessions.session(sessionId).click();

  await expect(sessions.events.getByText('task_end', { exact: true })).toBeVisible();
  await expect(sessions.events.getByText('a2a_send', { exact: true }).first()).toBeVisible();
  await expect(sessions.events.getByText('inference', { exact: true }).first()).toBeVisible();
  await expect(sessions.events.getByText('Task 1: Write a note about tide pools')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/sessions.png' });

  // Make rehearsal: the run, with every capsule that took part, saved as a workspace to replay offline.
  await sessions.dialog.getByRole('button', { name: 'Make rehearsal' }).click();
  const rehearsal = join(studio.workspace, 'rehearsals', `coordinator-${sessionId.slice(-6)}`);
  await expect(page.getByRole('status').filter({ hasText: 'Rehearsal saved in' })).toContainText(
    `${rehearsal} (coordinator, researcher, writer)`,
  );
  expect(existsSync(join(rehearsal, 'formation.yaml'))).toBe(true);
  await page.screenshot({ path: 'test-results/screenshots/sessions-rehearsal.png' });

  await sessions.dialog.getByRole('button', { name: 'Show on timeline' }).click();
  await expect(sessions.dialog.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
  const caused = sessions.timelineTasks.getByRole('button', {
    name: /^researcher task tsk_\w+, COMPLETED, .*caused by coordinator task tsk_/,
  });
  await expect(caused.first()).toBeVisible();
  await caused.first().focus();
  await expect(sessions.dialog.getByLabel('Task details')).toContainText('Caused by');
  await page.screenshot({ path: 'test-results/screenshots/timeline.png' });
  // The overlay follows the app's theme.
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await page.screenshot({ path: 'test-results/screenshots/timeline-dark.png' });

  await sessions.dialog.getByRole('button', { name: 'Close sessions' }).click();
  await expect(sessions.dialog).toBeHidden();
});
