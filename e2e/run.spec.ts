import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// Launch the example formation, send the orchestrator a message from the console, read the answer.

test('launch the formation, send the orchestrator a message and read its answer', async ({ page, studio }) => {
  void studio; // the fixture opened this test's own workspace
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');
  await expect(app.console.message).toBeDisabled();

  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  // A running capsule shows its door URL instead of its port.
  await expect(app.canvas.capsule('coordinator').getByText(/^127\.0\.0\.1:\d+$/)).toBeVisible();

  const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');

  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect(entry.getByLabel('Answer')).toContainText('Summary: the researcher gathered the facts');
  await expect(app.console.taskIdShown(entry)).toHaveText(/^…\w{6}/);
  // The orchestrator counted the task on its node.
  await expect(app.canvas.capsule('coordinator').getByText('T 1', { exact: true })).toBeVisible();

  // The task inspector lists it; the live trace shows its turns and tool calls.
  await app.canvas.select('coordinator');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(page.getByRole('list', { name: 'Tasks' }).getByTestId('task-state').first()).toHaveText('COMPLETED');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  const trace = page.getByRole('table', { name: 'Live trace' });
  await expect(trace.getByText('tool_call', { exact: true }).first()).toBeVisible();
  await expect(trace.getByText('task_end', { exact: true })).toBeVisible();

  await app.stopAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Stopped', { timeout: 20_000 });
});
