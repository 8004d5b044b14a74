import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioPage } from './pages/studio';
import { electronBinary } from './support/electron';
import { copyExampleWorkspace, ROOT } from './support/studio';

// Runs only where the Electron binary is installed (the `electron` project; CI: xvfb-run).

test('the desktop app opens the workspace, launches the example formation and shows an answer', async () => {
  const executablePath = electronBinary();
  test.skip(!executablePath, 'Electron is not installed here');
  const workspace = await copyExampleWorkspace();
  const home = mkdtempSync(join(tmpdir(), 'studio-electron-'));
  const app = await electron.launch({
    executablePath,
    args: [ROOT, '--workspace', workspace],
    env: { ...process.env, CAPSULE_HOME: home } as Record<string, string>,
  });
  try {
    const page = await app.firstWindow();
    await expect(page.locator('.react-flow__node')).toHaveCount(3);
    // The page has the bridge and nothing else from Node.
    expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    expect(
      await page.evaluate(() => typeof (window as unknown as { capsule?: { invoke?: unknown } }).capsule?.invoke),
    ).toBe('function');
    // The desktop offers the system folder dialog.
    expect(
      await page.evaluate(
        async () =>
          (
            await (
              window as unknown as {
                capsule: { invoke(c: string, i: unknown): Promise<{ value: { pickFolder: boolean } }> };
              }
            ).capsule.invoke('studio.capabilities', {})
          ).value.pickFolder,
      ),
    ).toBe(true);

    const studio = new StudioPage(page);
    await studio.launchAll.click();
    for (const name of ['coordinator', 'researcher', 'writer'])
      await expect(studio.stateOf(name)).toHaveText('Idle', { timeout: 30_000 });
    const entry = await studio.console.sendTo('coordinator', 'Write a note about tide pools');
    await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 30_000 });
    await expect(entry.getByLabel('Answer')).toContainText('Summary: the researcher gathered the facts');
  } finally {
    await app.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
