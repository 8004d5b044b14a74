import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronBinary } from './support/electron';
import { copyExampleWorkspace, ROOT } from './support/studio';

// Runs only where the Electron binary is installed (the `electron` project).
test('the desktop app opens the workspace with its three capsules', async () => {
  const executablePath = electronBinary();
  test.skip(!executablePath, 'Electron is not installed here');
  const workspace = await copyExampleWorkspace();
  const home = mkdtempSync(join(tmpdir(), 'studio-electron-'));
  const app = await electron.launch({ executablePath, args: [ROOT, '--workspace', workspace], env: { ...process.env, CAPSULE_HOME: home } as Record<string, string> });
  try {
    const page = await app.firstWindow();
    await expect(page.locator('.react-flow__node')).toHaveCount(3);
    // The page has the bridge and nothing else from Node.
    expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (window as unknown as { capsule?: { invoke?: unknown } }).capsule?.invoke)).toBe('function');
  } finally {
    await app.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
