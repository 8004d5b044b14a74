import { expect, test } from './fixtures';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';
import { TestsPage } from './pages/tests';

// A run whose delegation was edited at a breakpoint is saved as a test, and the test passes on its
// first run (it expects what the writer really got). Then the run is forked at turn 2 with an
// edited message: the form says turn 1 replays, lists the delegations it makes, and the writer's
// delegation, edited there, is what the writer gets in the fork.

test('save a breakpoint-edited run as a test that passes, then fork it at turn 2 with the delegation edited', async ({
  page,
  studio,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  const bp = app.breakpoints;
  const sessions = new SessionsPage(page);
  const tests = new TestsPage(page);
  await page.goto('/');

  // Pause the coordinator → writer delegation, edit what the writer gets, continue.
  const { entry } = await app.sendAndWait('coordinator', 'Write about otters.', {
    launchAll: ['coordinator', 'researcher', 'writer'],
    breakpoint: ['coordinator', 'writer'],
    until: 'paused',
  });
  await bp.openPaused('coordinator').click();
  await expect(bp.message()).toHaveValue('Draft a short paragraph for this request.');
  await bp.message().fill('Draft a limerick about otters.');
  await bp.button('Continue').click();
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
  await app.palette.open();
  await app.palette.run('Clear all breakpoints', 'Clear all breakpoints');
  const origin = (await studio.core.invoke('formation.get', {})).capsules.find(
    (c) => c.name === 'coordinator',
  )!.sessionId!;

  // Save as test, from the sessions browser.
  await sessions.open.click();
  await sessions.session(origin).click();
  await sessions.dialog.getByRole('button', { name: 'Save as test' }).click();
  await sessions.dialog.getByRole('textbox', { name: 'Test name' }).fill('edited');
  await sessions.dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(app.notice('Test saved as')).toBeVisible();
  await page.keyboard.press('Escape');

  // Its first run passes: it expects the edited delegation and the answer the writer gave to it.
  await tests.openFromMenu();
  await tests.runAll.click();
  await expect(tests.progress).toHaveText('1 passed, 0 failed', { timeout: 60_000 });
  await tests.show('edited');
  await expect(tests.task(1).getByRole('row', { name: /Delegation 2/ })).toContainText(
    'Draft a limerick about otters.',
  );
  await expect(tests.differences).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Fork at turn 2 with an edited message: turn 1 replays, with its delegations listed and editable.
  await sessions.open.click();
  await sessions.session(origin).click();
  await sessions.dialog.getByRole('button', { name: 'Fork from here' }).click();
  const form = sessions.forkForm;
  await form.getByLabel('From turn').fill('2');
  await expect(form).toContainText('Turn 1 replays the recording');
  const toWriter = form.getByRole('textbox', { name: 'Turn 1 delegation to writer' });
  await expect(toWriter).toHaveValue('Draft a limerick about otters.');
  await expect(form).toContainText('edited at a breakpoint in the recorded run');
  await expect(form.getByRole('textbox', { name: 'Turn 1 delegation to researcher' })).toHaveValue(
    'Find three facts for this request.',
  );
  await expect(form.getByText('edited at a breakpoint in the recorded run')).toHaveAttribute(
    'title',
    'The model wrote: Draft a short paragraph for this request.',
  );
  await form.getByLabel('Fork message').fill('Write about sea otters.');
  await expect(form.getByRole('note')).toContainText(
    'The model reads your edited message from turn 2 on. Turn 1 replays what it did with the recorded message',
  );
  await expect(form.getByRole('button', { name: 'Fork from turn 1 instead' })).toBeVisible();
  await toWriter.fill('Draft a haiku about sea otters.');
  await expect(form.getByText('edited', { exact: true })).toHaveCount(2);
  await page.screenshot({ path: 'test-results/screenshots/fork-form-delegations.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screenshots/fork-form-delegations-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await form.getByRole('button', { name: 'Start fork' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `of …${origin.slice(-6)} at turn 2: COMPLETED` }),
  ).toBeVisible({ timeout: 30_000 });

  // The writer got the text edited in the fork form.
  const asked = (await studio.core.invoke('task.list', { capsuleId: 'writer' })).map(
    (t) => t.history?.[0]?.parts[0]?.text,
  );
  expect(asked).toEqual(expect.arrayContaining(['Draft a limerick about otters.', 'Draft a haiku about sea otters.']));
});
