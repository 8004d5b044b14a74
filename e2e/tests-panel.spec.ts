import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';
import { TestsPage } from './pages/tests';

// The Tests panel: a run saved as a test from the sessions browser ("Save as test"), another
// from the researcher's session; both pass offline against the workspace as recorded. The
// coordinator's manifest is then edited so it never writes its summary: its test fails with the
// expected and actual answer side by side and the diff, and the researcher's still passes.

test('save runs as tests, run them, and read the diff of the one a manifest edit broke', async ({ page, studio }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { core, workspace } = studio;
  expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
  const task = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a short trip' });
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  const view = await core.invoke('formation.get', {});
  const sessionOf = (id: string) => view.capsules.find((c) => c.id === id)!.sessionId!;
  await core.invoke('formation.stop', {});
  await core.invoke('tests.saveFromSession', { sessionId: sessionOf('researcher'), name: 'research' });

  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();

  // Save as test, from the sessions browser.
  const sessions = new SessionsPage(page);
  await sessions.open.click();
  await sessions.session(sessionOf('coordinator')).click();
  await sessions.dialog.getByRole('button', { name: 'Save as test' }).click();
  await sessions.dialog.getByRole('textbox', { name: 'Test name' }).fill('trip');
  await sessions.dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(app.notice('Test saved as')).toContainText(join(workspace, 'tests', 'trip.yaml'));
  await page.keyboard.press('Escape');

  const tests = new TestsPage(page);
  await tests.openFromMenu();
  await expect(tests.stateOf('trip')).toHaveText('not run');
  await tests.runAll.click();
  await expect(tests.progress).toHaveText('2 passed, 0 failed', { timeout: 60_000 });
  await expect(tests.stateOf('research')).toContainText('passed');
  await tests.show('trip');
  await expect(tests.task(1).getByRole('row', { name: /Delegation 1/ })).toContainText('coordinator → researcher');
  await expect(tests.task(1).getByRole('row', { name: /Delegation 2/ })).toContainText('coordinator → writer');
  await expect(tests.differences).toHaveCount(0);

  // One turn only: the coordinator delegates but never writes its summary.
  const manifest = join(workspace, 'capsules', 'coordinator.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('max_turns: 6', 'max_turns: 1'));
  await tests.runAll.click();
  await expect(tests.progress).toHaveText('1 passed, 1 failed', { timeout: 60_000 });
  await expect(tests.stateOf('trip')).toContainText('failed');
  await expect(tests.stateOf('research')).toContainText('passed');
  await tests.show('trip');
  const answer = tests.task(1).getByRole('row', { name: /^Answer/ });
  await expect(answer).toHaveAttribute('data-wrong', 'true');
  await expect(answer).toContainText('exact');
  await expect(answer).toContainText('Summary: the researcher gathered the facts');
  await expect(tests.differences).toContainText('task 1: answer');
  await expect(tests.differences).toContainText('- "Summary: the researcher gathered the facts');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `/tmp/studio-tools-tests-${scheme}.png` });
  }
});
