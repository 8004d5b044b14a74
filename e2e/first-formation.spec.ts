import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// A new user's first formation: from an empty workspace, an Orchestrator and a Worker from the
// palette, wired, launched, sent a task. The worker does the work (its trace shows the task, the
// orchestrator's answer holds the worker's answer); with the edge removed the next task is
// reported as failed, delegation by delegation, never as done.

test('the palette orchestrator delegates to the worker it is wired to, and says so when it cannot', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await studio.core.invoke('workspace.create', { dir: join(mkdtempSync(join(tmpdir(), 'studio-fresh-')), 'first') });
  await page.goto('/');
  await expect(page.getByText('An empty formation')).toBeVisible();

  await app.canvas.dropFromPalette('Orchestrator', { x: 200, y: 200 });
  await expect(app.canvas.capsule('orchestrator')).toBeVisible();
  await app.canvas.dropFromPalette('Worker', { x: 620, y: 200 });
  await expect(app.canvas.capsule('worker')).toBeVisible();
  await page.getByRole('button', { name: 'Fit view', exact: true }).click();
  await app.screenshot('first-formation-1-dropped');

  await app.canvas.connect('orchestrator', 'worker');
  await expect(app.canvas.edge('orchestrator', 'worker')).toBeVisible();
  await app.screenshot('first-formation-2-wired');

  await app.launchAll.click();
  for (const name of ['orchestrator', 'worker'])
    await expect(app.stateOf(name)).toHaveText('Idle', { timeout: 20_000 });

  // A newcomer's first message, in their own words (no keyword needed): the edge does the work.
  const done = await app.console.sendTo('orchestrator', 'Summarise the quarterly sales report');
  await expect(done.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect(done.getByLabel('Answer')).toHaveText(
    'The workers answered:\n- worker: Acknowledged: “Summarise the quarterly sales report”',
  );
  await expect(done.getByTestId('delegation-outcome')).toHaveText(['→ workeranswered']);
  await app.screenshot('first-formation-3-answered');

  // The worker did the work: its own trace holds the task.
  await app.canvas.select('worker');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  const trace = page.getByRole('table', { name: 'Live trace' });
  await expect(trace.getByText('a2a_task_received', { exact: true })).toBeVisible();
  await expect(trace.getByText(/Summarise the quarterly sales report/).first()).toBeVisible();
  await app.screenshot('first-formation-4-worker-trace');

  // Without the edge the running orchestrator may reach no one: the task fails and says why.
  await app.canvas.deleteEdge('orchestrator', 'worker');
  await expect(app.canvas.edge('orchestrator', 'worker')).toHaveCount(0);
  await expect(app.canvas.capsule('orchestrator').getByTestId('restart-to-apply')).toHaveCount(0);
  const failed = await app.console.sendTo('orchestrator', 'Count them again');
  await expect(failed.getByTestId('task-state')).toHaveText('FAILED', { timeout: 20_000 });
  await expect(failed.getByLabel('Answer')).toContainText('task failed: every delegation failed (1 of 1)');
  await expect(failed.getByLabel('Answer')).not.toContainText('The workers answered');
  await expect(failed.getByTestId('delegation-outcome')).toHaveCount(1);
  await expect(failed.getByTestId('delegation-outcome')).toContainText('failed');
  await expect(failed.getByTestId('delegation-outcome')).toContainText('no worker is reachable from orchestrator');
  await app.screenshot('first-formation-5-no-edge');
  expect(await studio.core.invoke('task.list', { capsuleId: 'worker' })).toHaveLength(1);
});
