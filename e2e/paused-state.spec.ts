import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { InspectorPage } from './pages/inspector';
import { StudioPage, type SendAndWait } from './pages/studio';

// A task paused at a breakpoint is told as paused everywhere it shows, from the one record the
// core pushes: the node's state, the console's capsule picker, the console entry (its state and
// the delegation that has not been sent), the Tasks tab, and the edge (paused, not in flight).

/** The coordinator delegates to the researcher and the writer; a breakpoint holds the writer's delegation. */
const OTTERS_PAUSED: SendAndWait = {
  launchAll: ['coordinator', 'researcher', 'writer'],
  breakpoint: ['coordinator', 'writer'],
  until: 'paused',
};

/** Opens the Studio and sends the coordinator a request that pauses at the writer's breakpoint. */
async function pauseOtters(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  await page.goto('/');
  const { entry, taskId } = await app.sendAndWait('coordinator', 'Write about otters.', OTTERS_PAUSED);
  return { app, bp: app.breakpoints, entry, taskId };
}

test('a task paused at an edge breakpoint reads Paused on the node, picker, console, Tasks tab and edge', async ({
  page,
  studio,
}) => {
  void studio; // the fixture opened this test's own workspace
  const { app, bp, entry, taskId } = await pauseOtters(page);
  const inspector = new InspectorPage(page);

  await expect(app.stateOf('coordinator')).toHaveText('Paused');
  await expect(app.stateOf('coordinator')).toHaveAttribute('data-state', 'paused');
  // Said once on the node: its state reads Paused; its actions offer to open the paused task.
  const coordinator = app.canvas.capsule('coordinator');
  expect((await coordinator.innerText()).match(/Paused/g)).toHaveLength(1);
  await expect(bp.openPaused('coordinator')).toHaveText('Open paused task');
  await expect(app.console.target.locator('option[value="coordinator"]')).toHaveText('coordinator (paused)');
  await expect(entry.getByTestId('task-state')).toHaveText('PAUSED');
  const toWriter = entry.getByTestId('delegation-outcome').filter({ hasText: '→ writer' });
  await expect(toWriter).toContainText('paused before sending');
  await expect(toWriter).not.toContainText('working');
  // In the order the model made the calls, as the task's details and a reloaded page list them.
  await expect(entry.getByTestId('delegation-outcome')).toHaveText([/^→ researcher/, /^→ writer/]);
  // Nothing crosses the paused edge: it is not "in flight".
  await expect(
    page.locator('.edge-labels[data-edge="coordinator->writer"]').getByRole('status', { name: /in flight/ }),
  ).toHaveCount(0);
  await app.canvas.select('coordinator');
  await inspector.openTab('Tasks');
  await expect(inspector.task(taskId).getByTestId('task-state')).toHaveText('PAUSED');
  // The turn's tool calls read as its delegations do: one answered, one held, not "running".
  await inspector.openTask(taskId);
  const made = inspector.section(taskId, 'Delegations').getByRole('listitem');
  await expect(made.filter({ hasText: '→ researcher' })).toContainText('answered');
  await expect(made.filter({ hasText: '→ writer' })).toContainText('paused before sending');
  const tools = inspector.turnTools(taskId, 1);
  await expect(tools).toHaveText('2 · 1 answered, 1 paused');
  await page.screenshot({ path: '/tmp/paused-state.png' });
  // Stop session asks first, and tells the task as paused, not as running.
  await page.getByRole('button', { name: 'Stop session' }).click();
  const ask = page.getByRole('dialog', { name: 'Stop coordinator?' });
  await expect(ask).toContainText(
    '1 task is paused at a breakpoint in coordinator. Stop session cancels it and ends the session.',
  );
  await page.screenshot({ path: '/tmp/coherence-stop-paused.png' });
  await ask.getByRole('button', { name: 'Keep running' }).click();
  await expect(ask).toBeHidden();

  await bp.button('Continue').click();
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await expect(app.stateOf('coordinator')).toHaveText('Idle');
  await expect(app.console.target.locator('option[value="coordinator"]')).toHaveText('coordinator (idle)');
  await expect(toWriter).toContainText('answered');
  await expect(made.filter({ hasText: '→ writer' })).toContainText('answered');
  // Every call has its result: the column gives the time they took.
  await expect(tools).toHaveText(/^2 · \d/);
});

test('a reloaded page and a second window show the same paused picture: the node says what it waits on, the console the held delegation; Continue still works', async ({
  page,
  studio,
}) => {
  void studio; // the fixture opened this test's own workspace
  const { app, bp, entry, taskId } = await pauseOtters(page);
  const waiting = page.getByRole('status', { name: 'Current task of coordinator' });
  const toWriter = entry.getByTestId('delegation-outcome').filter({ hasText: '→ writer' });
  await expect(waiting).toContainText('waiting on a breakpoint before the delegation to writer');
  await expect(toWriter).toContainText('paused before sending');

  await page.screenshot({ path: '/tmp/pausedreload-before-reload.png' });
  // The reloaded page saw none of the trace events that led here: it shows what the core keeps.
  await page.reload();
  await expect(app.stateOf('coordinator')).toHaveText('Paused');
  await expect(bp.edgePaused('coordinator', 'writer')).toBeVisible();
  await expect(bp.edgeBreakpoint('coordinator', 'writer')).toBeVisible();
  // The node's box says what the task waits on; the console's delegation line says the hop is held.
  await expect(waiting).toContainText('waiting on a breakpoint before the delegation to writer');
  await expect(toWriter).toContainText('paused before sending');
  await expect(entry.getByTestId('delegation-outcome').filter({ hasText: '→ researcher' })).toContainText('answered');
  await bp.openPaused('coordinator').click();
  await expect(bp.paused()).toContainText('before the delegation to writer');
  await expect(bp.message()).toHaveValue('Draft a short paragraph for this request.');
  await page.screenshot({ path: '/tmp/pausedreload-after-reload.png' });
  // The badge opened the paused task's details; they read its own trace: its turn and its
  // delegations show after the reload as they did before it (the researcher's answered, the
  // writer's held at the breakpoint).
  const inspector = new InspectorPage(page);
  await expect(inspector.detail(taskId)).toBeVisible();
  await expect(inspector.section(taskId, 'Turns').getByRole('row', { name: 'Turn 1' })).toBeVisible();
  const made = inspector.section(taskId, 'Delegations').getByRole('listitem');
  await expect(made.filter({ hasText: '→ researcher' })).toContainText('answered');
  await expect(made.filter({ hasText: '→ writer' })).toContainText('paused before sending');
  await page.screenshot({ path: '/tmp/pausedreload-inspector-after-reload.png' });
  // A second window shows it too.
  const other = await page.context().newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await other.goto('/');
  await expect(other.getByRole('status', { name: 'Current task of coordinator' })).toContainText(
    'waiting on a breakpoint before the delegation to writer',
  );
  await expect(new StudioPage(other).breakpoints.edgePaused('coordinator', 'writer')).toBeVisible();
  await other.close();

  await bp.button('Continue').click();
  await expect(bp.paused()).toHaveCount(0);
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 15_000 });
  await expect(bp.edgePaused('coordinator', 'writer')).toHaveCount(0);
  await expect(toWriter).toContainText('answered');
  await expect(waiting).toHaveCount(0);
});

test('a paused task canceled from its Tasks row reads Canceled everywhere; its delegations keep their workers and order', async ({
  page,
  studio,
}) => {
  void studio; // the fixture opened this test's own workspace
  const { app, bp, entry, taskId } = await pauseOtters(page);
  const inspector = new InspectorPage(page);
  await app.canvas.select('coordinator');
  await inspector.openTab('Tasks');
  await inspector
    .task(taskId)
    .getByRole('button', { name: `Cancel task ${taskId}` })
    .click();

  await expect(entry.getByTestId('task-state')).toHaveText('CANCELED', { timeout: 15_000 });
  await expect(inspector.task(taskId).getByTestId('task-state')).toHaveText('CANCELED');
  await expect(app.stateOf('coordinator')).toHaveText('Idle');
  await expect(app.console.target.locator('option[value="coordinator"]')).toHaveText('coordinator (idle)');
  await expect(bp.edgePaused('coordinator', 'writer')).toHaveCount(0);
  // The edge tells it canceled too, not still in flight.
  await expect(app.canvas.hopMark('coordinator', 'writer', 'canceled')).toHaveAccessibleName('1 canceled');
  await expect(app.canvas.inFlight('coordinator', 'writer')).toHaveCount(0);
  // The console tells each delegation as the task's details do: the researcher had answered, the
  // held one to the writer was canceled with its task; both still name their worker.
  const lines = entry.getByTestId('delegation-outcome');
  await expect(lines).toHaveText([/^→ researcher\s*answered/, /^→ writer\s*canceled/]);
  await inspector.openTask(taskId);
  await expect(inspector.section(taskId, 'Delegations').getByRole('listitem')).toHaveText([
    /→ researcher\s*answered/,
    /→ writer\s*canceled/,
  ]);
  await page.screenshot({ path: '/tmp/coherence-canceled-paused.png' });
});
