import { expect, test } from './fixtures';
import { InspectorPage } from './pages/inspector';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';

// A finished task's row in the Tasks tab offers what applies to it (fork it, save its run as a
// test), never a Cancel that can only answer "already COMPLETED"; a click anywhere on the row
// opens its details.

test('a finished task row offers Fork and Save as test, no Cancel, and opens its details on a click', async ({
  page,
  studio,
}) => {
  void studio; // the fixture opened this test's own workspace
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  const inspector = new InspectorPage(page);
  await page.goto('/');
  const { taskId } = await app.sendAndWait('writer', 'Draft a note about tide pools', { until: 'COMPLETED' });

  await app.canvas.select('writer');
  await inspector.openTab('Tasks');
  const row = inspector.task(taskId);
  await expect(row.getByTestId('task-state')).toHaveText('COMPLETED');
  await expect(row.getByRole('button', { name: /Cancel/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Fork task ${taskId}` })).toBeEnabled();
  await expect(row.getByRole('button', { name: 'Save as test' })).toBeEnabled();
  await page.screenshot({ path: '/tmp/task-rows-finished.png' });

  // The text of the row opens the details, and closes them again.
  await row.getByText('Draft a note about tide pools').click();
  await expect(inspector.detail(taskId)).toBeVisible();
  await expect(inspector.section(taskId, 'Messages')).toContainText('Draft a note about tide pools');
  await row.getByTestId('task-state').click();
  await expect(inspector.detail(taskId)).toHaveCount(0);

  // Save as test from the row: the run is saved in the workspace's tests folder.
  await row.getByRole('button', { name: 'Save as test' }).click();
  await expect(inspector.detail(taskId)).toHaveCount(0); // the row's own buttons do not toggle it
  await page.screenshot({ path: '/tmp/task-rows-save.png' });
  await row.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(app.notice(/Test saved as .*tests/)).toBeVisible();

  // Fork from the row: the fork form opens on this task.
  await row.getByRole('button', { name: `Fork task ${taskId}` }).click();
  const sessions = new SessionsPage(page);
  await expect(sessions.forkForm).toBeVisible();
  await expect(sessions.forkForm.getByRole('textbox', { name: 'Fork message' })).toHaveValue(
    'Draft a note about tide pools',
  );
});
