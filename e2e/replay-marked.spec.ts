import { expect, test } from './fixtures';
import { ReplayPage } from './pages/replay';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';

// During a replay the canvas is the recording's: the node states as much as the activity under
// them, and the canvas itself says it is a replay until Exit; then the live states come back.

test.use({ viewport: { width: 1440, height: 900 } });

test('a replay shows the recorded node states, marks the canvas as a replay, and gives the live ones back on Exit', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  const sessions = new SessionsPage(page);
  const replay = new ReplayPage(page);
  const canvas = app.canvas;
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 30_000 });
  const coordinatorSession = (await studio.core.invoke('formation.get', {})).capsules.find(
    (c) => c.name === 'coordinator',
  )!.sessionId!;
  // Live, everything is stopped now.
  await app.stopAll.click();
  for (const name of ['coordinator', 'researcher', 'writer'])
    await expect(app.stateOf(name)).toHaveText('Stopped', { timeout: 20_000 });

  const mark = page.getByRole('status', { name: 'Canvas shows a replay' });
  await expect(mark).toHaveCount(0);
  await sessions.open.click();
  await sessions.session(coordinatorSession).click();
  await sessions.dialog.getByRole('button', { name: 'Replay', exact: true }).click();
  await expect(replay.bar).toBeVisible();
  await expect(mark).toContainText('recorded run of coordinator');

  // At the start of the recording nothing runs yet: no live "Stopped" on the recorded capsules.
  for (const name of ['coordinator', 'researcher', 'writer']) await expect(app.stateOf(name)).toHaveText('Idle');
  // The first hop: the coordinator is working on its task in the recording, pill and body alike.
  await replay.nextHop.click();
  await expect(canvas.currentTask('coordinator')).toBeVisible();
  await expect(app.stateOf('coordinator')).toHaveText('Busy');
  await page.screenshot({ path: '/tmp/replay-marked.png' });

  // At the end of the run, the recorded capsules are idle again.
  await replay.jumpToEnd.click();
  await expect(canvas.currentTask('coordinator')).toHaveCount(0);
  await expect(app.stateOf('coordinator')).toHaveText('Idle');

  await replay.exit.click();
  await expect(replay.bar).toBeHidden();
  await expect(mark).toHaveCount(0);
  for (const name of ['coordinator', 'researcher', 'writer']) await expect(app.stateOf(name)).toHaveText('Stopped');
});
