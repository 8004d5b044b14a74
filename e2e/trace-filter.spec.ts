import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, StudioPage } from './pages/studio';

// The live trace filters by event type, by task and by text: only the matching lines stay, the
// pickers list what the trace holds, and clearing the filter brings every line back.

test('the live trace filters by event type, task and text', async ({ page }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  const first = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(first.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  const second = await app.console.say('And one about sea stars');
  await expect(second.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });

  await app.canvas.select('coordinator');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  const trace = page.getByRole('table', { name: 'Live trace' });
  const filter = page.getByRole('search', { name: 'Filter the trace' });
  const types = () => trace.locator('.trace-event .trace-type').allInnerTexts();
  await expect.poll(async () => new Set(await types()).size).toBeGreaterThan(2);

  // By type: only tool calls.
  await filter.getByLabel('Event type').selectOption('tool_call');
  await expect.poll(async () => [...new Set(await types())]).toEqual(['tool_call']);
  await expect(filter.getByRole('status')).toHaveText(/^\d+ shown$/);

  // By task: only the lines of one task (its header is the only group).
  const tasks = await filter
    .getByLabel('Task')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v.startsWith('tsk_')));
  expect(tasks.length).toBe(2);
  await filter.getByLabel('Task').selectOption(tasks[1]);
  await expect
    .poll(async () => trace.locator('.trace-group').allInnerTexts())
    .toEqual([expect.stringContaining(tasks[1])]);

  // By text, any case: the lines that mention sea stars, of either task.
  await filter.getByLabel('Event type').selectOption('');
  await filter.getByLabel('Task').selectOption('');
  await filter.getByLabel('Filter text').fill('SEA STARS');
  const total = Number((await page.getByTestId('trace-count').innerText()).match(/^[\d,]+/)![0].replace(/,/g, ''));
  await expect
    .poll(async () => Number((await filter.getByRole('status').innerText()).match(/^\d+/)![0]))
    .toBeGreaterThan(0);
  expect(Number((await filter.getByRole('status').innerText()).match(/^\d+/)![0])).toBeLessThan(total);
  await expect(
    trace
      .locator('.trace-event')
      .filter({ hasText: /sea stars/i })
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/trace-filter.png` });

  // Nothing matches: the list says so by being empty and the count reads 0; clearing brings every line back.
  await filter.getByLabel('Filter text').fill('no line says this');
  await expect(filter.getByRole('status')).toHaveText('0 shown');
  await expect(trace.locator('.trace-event')).toHaveCount(0);
  await filter.getByLabel('Filter text').fill('');
  await expect(filter.getByRole('status')).toHaveCount(0);
  await expect.poll(async () => new Set(await types()).size).toBeGreaterThan(2);
});
