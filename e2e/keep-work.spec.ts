import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { connectContract, copyExampleWorkspace, startStudio, type StudioProcess } from './support/studio';
import { StudioPage } from './pages/studio';

// The user's work survives a reload and a restart: the console's conversation (kept in the
// workspace's own Studio folder), the workspace itself (npm start reopens the last one, not the
// example), the selected capsule with its open tab and the side panel's width.

let studio: StudioProcess | undefined;
let home: string;
let workspace: string;
test.afterEach(async () => {
  await studio?.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

test('a conversation, the workspace, the selected capsule, its open tab and the panel width survive reload and restart', async ({
  page,
}) => {
  home = mkdtempSync(join(tmpdir(), 'studio-keep-home-'));
  workspace = await copyExampleWorkspace();
  studio = await startStudio({ home });
  const core = await connectContract(studio.url);
  await core.invoke('workspace.open', { dir: workspace });
  core.close();

  const app = new StudioPage(page);
  await page.goto(studio.url);
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  const done = await app.console.sendTo('coordinator', 'Plan a picnic for twelve');
  await expect(done.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  const answer = (await done.getByLabel('Answer').innerText()).trim();
  expect(answer.length).toBeGreaterThan(0);

  await app.canvas.select('writer');
  const details = page.getByRole('complementary', { name: 'Details of writer' });
  await details.getByRole('tab', { name: 'Tasks' }).click();
  const handle = page.getByRole('separator', { name: 'Resize the details panel' });
  await handle.focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  const width = Number(await handle.getAttribute('aria-valuenow'));
  expect(width).toBe(400 + 128);
  // Kept a moment after the change, in the workspace's own folder.
  await expect.poll(() => existsSync(join(workspace, '.studio', 'conversations.json'))).toBe(true);
  await expect
    .poll(() => readFileSync(join(workspace, '.studio', 'conversations.json'), 'utf8'))
    .toContain('TASK_STATE_COMPLETED');

  const expectKept = async () => {
    await expect(details).toBeVisible();
    // On the tab that was open, not back on the Manifest.
    await expect(details.getByRole('tab', { name: 'Tasks' })).toHaveAttribute('aria-selected', 'true');
    // The console reopens the conversation last held (with the coordinator), not the selected capsule's.
    await expect(app.console.target).toHaveValue('coordinator');
    await expect(page.getByRole('separator', { name: 'Resize the details panel' })).toHaveAttribute(
      'aria-valuenow',
      String(width),
    );
    const entry = app.console.entries.filter({ hasText: 'Plan a picnic for twelve' });
    await expect(entry).toHaveCount(1);
    await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED');
    await expect(entry.getByLabel('Answer')).toHaveText(answer);
  };

  await page.reload();
  await expectKept();
  await app.screenshot('keep-work-1-reloaded');

  // A restart: a new process on another port, started without a workspace (as npm start is).
  await studio.close();
  studio = await startStudio({ home });
  await page.goto(studio.url);
  await expect(page.getByTestId('workspace-name')).toHaveText(workspace.split('/').pop()!);
  await expectKept();
  await app.screenshot('keep-work-2-restarted');
  // The conversation goes on where it was: the next message continues its context.
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  const next = await app.console.say('And for twenty?');
  await expect(next.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect(app.console.entries).toHaveCount(2);
});
