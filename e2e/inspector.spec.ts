import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// The task inspector: cancel a running task (it really stops: CANCELED in the UI and in the
// trace), then stop the session and read what it canceled and left running.

test('cancel a running task from the inspector, then stop the session', async ({ page, studio }) => {
  // The writer's scripted turn hangs until canceled.
  const file = join(studio.workspace, 'capsules/writer.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/- text: "Draft:[^"]*"/, '- hang: true'));
  await studio.core.invoke('workspace.open', { dir: studio.workspace });

  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });

  const entry = await app.console.sendTo('writer', 'Draft something slowly');
  await expect(entry.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });
  await expect(app.stateOf('writer')).toHaveText('Busy');

  await app.canvas.select('writer');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  const row = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem').first();
  await expect(row.getByTestId('task-state')).toHaveText('WORKING');
  await row.getByRole('button', { name: /^Cancel task/ }).click();

  await expect(row.getByTestId('task-state')).toHaveText('CANCELED');
  await expect(row.getByRole('status')).toContainText('CANCELED');
  await expect(entry.getByTestId('task-state')).toHaveText('CANCELED');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  await expect(page.getByRole('table', { name: 'Live trace' }).getByText('task_canceled', { exact: true })).toBeVisible();
  await app.screenshot('inspector-trace-canceled');

  // Canceling it again says why it cannot be canceled any more.
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await row.getByRole('button', { name: /^Cancel task/ }).click();
  await expect(row.getByRole('status')).toContainText(/cancel/i);
  await app.screenshot('inspector-tasks');

  // Stop session cancels what the session still holds and reports it; the capsule keeps running.
  const second = await app.console.sendTo('writer', 'Another slow draft');
  await expect(second.getByTestId('task-state')).toHaveText('WORKING', { timeout: 15_000 });
  const secondId = (await second.getByText(/^tsk_/).textContent())!;
  await page.getByRole('button', { name: 'Stop session' }).click();
  const result = page.getByRole('status', { name: 'Stop session result' });
  await expect(result).toContainText('1 task canceled');
  await expect(result).toContainText(secondId);
  await expect(result).toContainText('Nothing was left running');
  await expect(second.getByTestId('task-state')).toHaveText('CANCELED');
  await expect(app.stateOf('writer')).toHaveText('Idle');
  await app.screenshot('inspector-stop-session');
});
