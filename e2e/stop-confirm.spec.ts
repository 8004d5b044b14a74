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
