import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// Stop all with tasks still running asks first, saying how many: Keep running leaves everything as
// it was; Stop all cancels the tasks and ends every session.

test('Stop all says how many tasks are running before it ends them', async ({ page, studio }) => {
  for (const name of ['researcher', 'writer']) {
    const file = join(studio.workspace, 'capsules', `${name}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 20000'));
  }
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const toWriter = await app.console.sendTo('writer', 'A slow draft');
  await expect(toWriter.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });
  // (The console shows one capsule's conversation at a time: the researcher's from here on.)
  const toResearcher = await app.console.sendTo('researcher', 'Slow facts');
  await expect(toResearcher.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });

  await app.stopAll.click();
  const ask = page.getByRole('dialog', { name: 'Stop every capsule?' });
  await expect(ask).toContainText('2 tasks are still running. Stop all cancels them and ends every session.');
  await page.screenshot({ path: test.info().outputPath('stop-all.png') });
  await ask.getByRole('button', { name: 'Keep running' }).click();
  await expect(ask).toBeHidden();
  for (const name of ['researcher', 'writer']) await expect(app.stateOf(name)).toHaveText('Busy');
  await expect(toResearcher.getByTestId('task-state')).toHaveText('WORKING');

  await app.stopAll.click();
  await ask.getByRole('button', { name: 'Stop all' }).click();
  for (const name of ['coordinator', 'researcher', 'writer'])
    await expect(app.stateOf(name)).toHaveText('Stopped', { timeout: 20_000 });
  await expect(toResearcher.getByTestId('task-state')).toHaveText('CANCELED');
});

// A node's Stop is the same Stop: with a task in hand it asks first, as Stop session does.
test("a node's Stop asks first while its capsule has a task running", async ({ page, studio }) => {
  const file = join(studio.workspace, 'capsules', 'writer.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 20000'));
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  const app = new StudioPage(page);
  await page.goto('/');
  const node = app.canvas.capsule('writer');
  await node.getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  const entry = await app.console.sendTo('writer', 'A slow draft');
  await expect(entry.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });

  await node.getByRole('button', { name: 'Stop writer' }).click();
  const ask = page.getByRole('dialog', { name: 'Stop writer?' });
  await expect(ask).toContainText('1 task is still running in writer. Stop session cancels it and ends the session.');
  await page.screenshot({ path: '/tmp/words-node-stop.png' });
  await ask.getByRole('button', { name: 'Keep running' }).click();
  await expect(app.stateOf('writer')).toHaveText('Busy');
  await expect(entry.getByTestId('task-state')).toHaveText('WORKING');

  await node.getByRole('button', { name: 'Stop writer' }).click();
  await ask.getByRole('button', { name: 'Stop session' }).click();
  await expect(app.stateOf('writer')).toHaveText('Stopped', { timeout: 20_000 });
  await expect(entry.getByTestId('task-state')).toHaveText('CANCELED');
});
