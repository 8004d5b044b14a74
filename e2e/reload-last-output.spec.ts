import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';
import { cancelWhileDelegating } from './scenes/canceled-run';

// A reload loses nothing the canvas and the console showed: each node's Last output comes back
// from the capsule's record (the core keeps each capsule's last task that ended), whether its
// session still runs or was stopped; a stopped session's task tells its delegations again, read
// from that session's trace (the kept console entry names the session that ran the task).

const ANSWER =
  'Summary: the researcher gathered the facts and the writer drafted the paragraph. Both workers answered.';
const NOTES = 'Research notes: fact one, fact two, fact three.';

test('after a reload, each node shows its Last output again, the same text, and Copy copies it', async ({
  page,
  studio,
  context,
}) => {
  void studio; // the fixture opened this test's own workspace
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  const canvas = app.canvas;
  await page.goto('/');
  await app.sendAndWait('coordinator', 'Write about otters.', {
    launchAll: ['coordinator', 'researcher', 'writer'],
    until: 'COMPLETED',
  });
  await expect(canvas.lastOutput('coordinator')).toHaveText(ANSWER);
  await expect(canvas.lastOutput('researcher')).toHaveText(NOTES);
  await page.screenshot({ path: '/tmp/reload-last-output-1-before.png' });

  await page.reload();
  await expect(app.stateOf('coordinator')).toHaveText('Idle');
  await expect(canvas.lastOutput('coordinator')).toHaveText(ANSWER);
  await expect(canvas.lastOutput('researcher')).toHaveText(NOTES);
  await expect(canvas.lastOutput('writer')).toContainText('Draft:');
  expect(await canvas.copyLastOutput('coordinator')).toBe(ANSWER);
  await page.screenshot({ path: '/tmp/reload-last-output-2-after.png' });
});

test('after Stop and a reload, the stopped session’s task shows its delegation lines and Last output again', async ({
  page,
  studio,
}) => {
  void studio;
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  const canvas = app.canvas;
  await page.goto('/');
  const { entry, taskId } = await app.sendAndWait('coordinator', 'Write about otters.', {
    launchAll: ['coordinator', 'researcher', 'writer'],
    until: 'COMPLETED',
  });
  await expect(entry.getByTestId('delegation-outcome')).toHaveText(['→ researcheranswered', '→ writeranswered']);
  await app.stopAll.click();
  for (const name of ['coordinator', 'researcher', 'writer'])
    await expect(app.stateOf(name)).toHaveText('Stopped', { timeout: 20_000 });
  await page.screenshot({ path: '/tmp/reload-stopped-1-before.png' });

  await page.reload();
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');
  const again = app.console.entries.first();
  await expect(again).toContainText('Write about otters.');
  await expect(again.getByTestId('delegation-outcome')).toHaveText(['→ researcheranswered', '→ writeranswered']);
  await expect(canvas.lastOutput('coordinator')).toHaveText(ANSWER);
  await page.screenshot({ path: '/tmp/reload-stopped-2-after.png' });

  // The stopped capsule's Tasks tab lists the task its stopped session ran, as before the reload.
  await canvas.select('coordinator');
  const details = page.getByRole('complementary', { name: 'Details of coordinator' });
  await details.getByRole('tab', { name: 'Tasks' }).click();
  const row = details.getByRole('listitem', { name: `Task ${taskId}` });
  await expect(row).toContainText('Write about otters.');
  await expect(row).toContainText('COMPLETED');
  await expect(details).not.toContainText('No tasks yet');
  await expect(details).toContainText(/Stopped session ses_/);
  await page.screenshot({ path: '/tmp/reload2-stopped-tasks.png' });
});

test('after Stop and a reload, a canceled run marks its edges again and its console entry tells its canceled delegations', async ({
  page,
  studio,
}) => {
  const { app, canvas } = await cancelWhileDelegating(page, studio);
  await app.stopAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Stopped', { timeout: 20_000 });
  await expect(canvas.hopMark('coordinator', 'writer', 'canceled')).toHaveAccessibleName('1 canceled');
  await page.screenshot({ path: '/tmp/reload-canceled-1-before.png' });

  await page.reload();
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');
  const again = app.console.entries.first();
  await expect(again.getByTestId('delegation-outcome')).toHaveText(['→ researchercanceled', '→ writercanceled']);
  await expect(canvas.hopMark('coordinator', 'writer', 'canceled')).toHaveAccessibleName('1 canceled');
  await expect(canvas.hopMark('coordinator', 'researcher', 'canceled')).toHaveAccessibleName('1 canceled');
  await page.screenshot({ path: '/tmp/reload-canceled-2-after.png' });
});
