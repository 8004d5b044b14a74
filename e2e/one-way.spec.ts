import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { InspectorPage } from './pages/inspector';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';

// The Studio says one thing one way: a task's id reads the same on its node, in its Tasks row and in
// the console; every time is written on the 24-hour clock; an action has the same words in the
// toolbar, the canvas menus, the palette and the console's hints.

const SHOTS = '/tmp/words-one-way';

test("a task's id reads the same on the node, in the Tasks tab and in the console", async ({ page, studio }) => {
  const file = join(studio.workspace, 'capsules', 'writer.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 20000'));
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  const app = new StudioPage(page);
  const inspector = new InspectorPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  const entry = await app.console.sendTo('writer', 'A slow draft');
  await expect(entry.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });

  const id = await app.console.taskIdOf(entry);
  expect(id).toMatch(/^tsk_/);
  const short = `…${id.slice(-6)}`;
  // The conversation's context shows its end too, beside the conversation picker, not cut off.
  const ctx = await app.console.contextId();
  await expect(app.console.conversation).toBeVisible();
  await expect(app.console.context).toHaveText(`context …${ctx.slice(-6)}`);
  expect(await app.console.context.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // The whole id is in each one's tooltip.
  await expect(app.console.taskIdShown(entry)).toHaveText(short);
  await expect(app.canvas.currentTask('writer').getByTitle(`Task ${id}`)).toHaveText(short);
  await app.canvas.select('writer');
  await inspector.openTab('Tasks');
  await expect(inspector.task(id).getByTitle(`Task ${id}`)).toHaveText(short);
  await expect(inspector.task(id).locator('.task-time')).toHaveText(/^\d\d:\d\d:\d\d$/);

  // The node's counters say what they count.
  const counters = app.canvas.capsule('writer').getByTitle('0 queued, 1 task in this session (running and finished)');
  await expect(counters).toContainText('Q 0');
  await expect(counters).toContainText('T 1');
  await page.screenshot({ path: `${SHOTS}/task-id.png` });
});

test('the sessions list writes its times on the 24-hour clock', async ({ page, studio }) => {
  void studio;
  const app = new StudioPage(page);
  const sessions = new SessionsPage(page);
  await page.goto('/');
  await app.sendAndWait('writer', 'A short note', { until: 'COMPLETED' });
  await sessions.open.click();
  const first = sessions.list.getByRole('button').first();
  await expect(first).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d · /);
  await expect(sessions.list).not.toContainText(/\b(AM|PM)\b/);
  await page.screenshot({ path: `${SHOTS}/sessions.png` });
});

test("the palette and the console use the toolbar's and the menus' words", async ({ page, studio }) => {
  void studio;
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.console.log).toContainText('Launch all (in the toolbar), or launch a capsule from its node');
  await expect(app.console.message).toHaveAttribute(
    'placeholder',
    /^Launch \S+ from its node \(or Launch all\) to send it a message$/,
  );

  await app.palette.open();
  await app.palette.input.fill('launch');
  await expect(app.palette.option('Launch all')).toBeVisible();
  await page.keyboard.press('Escape');

  // The selected capsule, then the selected connection: the palette offers what their menus offer, in the same words.
  await app.canvas.select('writer');
  await app.palette.open();
  await app.palette.input.fill('breakpoint');
  await expect(app.palette.option('Pause before each turn (breakpoint)')).toBeVisible();
  await page.keyboard.press('Escape');
  await app.canvas.edge('coordinator', 'writer').locator('.react-flow__edge-interaction').click({ force: true });
  await app.palette.open();
  await app.palette.input.fill('breakpoint');
  await expect(app.palette.option('Pause delegations here (breakpoint)')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/palette.png` });
});
