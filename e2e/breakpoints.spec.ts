import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// A breakpoint on the example formation's coordinator → writer edge: the delegation waits with
// its message, shown on the canvas and in the coordinator's Tasks tab; the message is edited and
// the task continued, and the writer gets the edited message.

for (const scheme of ['light', 'dark'] as const) {
  test(`pause a delegation on an edge, edit its message, continue (${scheme})`, async ({ page, studio }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    const app = new StudioPage(page);
    const bp = app.breakpoints;
    await page.goto('/');
    await app.launchAndWait(['coordinator', 'researcher', 'writer']);

    await app.canvas
      .edge('coordinator', 'writer')
      .locator('.react-flow__edge-interaction')
      .click({ button: 'right', force: true });
    await app.tools.choose('Pause delegations here (breakpoint)');
    await expect(bp.edgeBreakpoint('coordinator', 'writer')).toBeVisible();

    const entry = await app.console.sendTo('coordinator', 'Write about otters.');
    await expect(bp.openPaused('coordinator')).toBeVisible({ timeout: 15_000 });
    await expect(bp.edgePaused('coordinator', 'writer')).toBeVisible();
    await expect(entry.getByTestId('task-state')).toHaveText('PAUSED');

    await bp.openPaused('coordinator').click();
    await expect(bp.message()).toHaveValue('Draft a short paragraph for this request.');
    await expect(bp.paused()).toContainText('before the delegation to writer');
    await bp.message().fill('Draft a limerick about otters.');
    await expect(bp.paused()).toContainText('(edited)');
    await page.screenshot({ path: `/tmp/breakpoints-paused-${scheme}.png` });

    await bp.button('Continue').click();
    await expect(bp.paused()).toHaveCount(0);
    await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
    await expect(bp.openPaused('coordinator')).toHaveCount(0);
    // The breakpoint stays set until cleared.
    await expect(bp.edgeBreakpoint('coordinator', 'writer')).toBeVisible();

    // The writer's task was asked the edited message.
    await app.canvas.select('writer');
    await page.getByRole('tab', { name: 'Tasks' }).click();
    await expect(page.getByRole('list', { name: 'Tasks' }).getByRole('listitem').first()).toContainText(
      'Draft a limerick about otters.',
    );
    const writerTasks = await studio.core.invoke('task.list', { capsuleId: 'writer' });
    expect(writerTasks.map((t) => t.history?.[0]?.parts[0]?.text)).toEqual(['Draft a limerick about otters.']);
    await page.screenshot({ path: `/tmp/breakpoints-after-${scheme}.png` });

    // Cleared from the palette: the mark goes.
    await app.palette.open();
    await app.palette.run('Clear all breakpoints', 'Clear all breakpoints');
    await expect(bp.edgeBreakpoint('coordinator', 'writer')).toHaveCount(0);
  });
}

test('a node breakpoint pauses before each turn; Step runs one turn and pauses again', async ({ page, studio }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  void studio; // the fixture opened this test's own workspace
  const app = new StudioPage(page);
  const bp = app.breakpoints;
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  await app.tools.menuOnNode('coordinator');
  await app.tools.choose('Pause before each turn (breakpoint)');
  await expect(page.getByRole('img', { name: 'Breakpoint before each turn of coordinator' })).toBeVisible();

  const entry = await app.console.sendTo('coordinator', 'Plan a picnic.');
  await bp.openPaused('coordinator').click();
  await expect(bp.paused()).toContainText('before turn 1');
  await expect(bp.message()).toHaveValue('Plan a picnic.');
  await bp.button('Step').click();
  // One turn ran (the delegations went out and came back); the task waits before the next.
  await expect(bp.paused()).toContainText('before turn 2', { timeout: 15_000 });
  await expect(bp.message()).toHaveValue(/Draft: a short, clear paragraph/);
  await page.screenshot({ path: '/tmp/breakpoints-turn.png' });
  // The menu clears it; the task is continued from its row.
  await app.tools.menuOnNode('coordinator');
  await app.tools.choose('Clear breakpoint');
  await expect(page.getByRole('img', { name: 'Breakpoint before each turn of coordinator' })).toHaveCount(0);
  await bp.button('Continue').click();
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 15_000 });
});
