import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';
import { cancelWhileDelegating } from './scenes/canceled-run';

// A reloaded page tells a finished task's delegations as the page that watched them did, though
// its session is idle (the reconnect reads only sessions with work in hand): the console reads
// the idle session's recent lines when it first shows that capsule's conversation.

test('after a reload, an idle session’s finished task shows its delegation lines in the console again', async ({
  page,
  studio,
}) => {
  void studio; // the fixture opened this test's own workspace
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  await page.goto('/');
  const { entry } = await app.sendAndWait('coordinator', 'Write about otters.', {
    launchAll: ['coordinator', 'researcher', 'writer'],
    until: 'COMPLETED',
  });
  const lines = entry.getByTestId('delegation-outcome');
  await expect(lines.filter({ hasText: '→ researcher' })).toContainText('answered');
  await expect(lines.filter({ hasText: '→ writer' })).toContainText('answered');
  await expect(app.stateOf('coordinator')).toHaveText('Idle');

  await page.reload();
  await expect(app.stateOf('coordinator')).toHaveText('Idle');
  const again = app.console.entries.first();
  await expect(again).toContainText('Write about otters.');
  await expect(again.getByTestId('delegation-outcome')).toHaveCount(2);
  await expect(again.getByTestId('delegation-outcome').filter({ hasText: '→ researcher' })).toContainText('answered');
  await expect(again.getByTestId('delegation-outcome').filter({ hasText: '→ writer' })).toContainText('answered');
  // The task is still in its running session, as the Tasks tab lists it: the console says so too,
  // not "kept with the workspace" (that is for a task no longer in view).
  await expect(again.getByTestId('task-state')).toHaveText('COMPLETED');
  await expect(again).not.toContainText('kept with the workspace');
  await page.screenshot({ path: '/tmp/coherence-reload-delegations.png' });
});

test('after a reload, a canceled run of a session still running marks its edges canceled again', async ({
  page,
  studio,
}) => {
  const { app, canvas } = await cancelWhileDelegating(page, studio);
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });

  await page.reload();
  await expect(app.stateOf('coordinator')).toHaveText('Idle');
  await expect(app.console.entries.first().getByTestId('task-state')).toHaveText('CANCELED');
  await expect(canvas.hopMark('coordinator', 'writer', 'canceled')).toHaveAccessibleName('1 canceled');
  await expect(canvas.hopMark('coordinator', 'researcher', 'canceled')).toHaveAccessibleName('1 canceled');
  await page.screenshot({ path: '/tmp/reload2-canceled-running.png' });
});
