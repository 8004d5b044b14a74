import { expect, test } from '@playwright/test';
import { rmSync } from 'node:fs';
import { StudioPage } from './pages/studio';
import { copyExampleWorkspace, startStudio } from './support/studio';

// When the core goes away (Ctrl-C, a crash) the page tells it once: the toolbar no longer says a
// green "Connected" under the "connection lost" banner.

test('after the core ends, the toolbar says the connection is lost, not Connected', async ({ page }) => {
  const workspace = await copyExampleWorkspace();
  const server = await startStudio({ workspace });
  try {
    const app = new StudioPage(page);
    await page.goto(server.url);
    await expect(app.stateOf('writer')).toHaveText('Stopped');
    const toolbar = page.getByRole('banner');
    await expect(toolbar.getByText('Connected', { exact: true })).toBeVisible();

    await server.close();
    await expect(page.getByRole('alert').filter({ hasText: 'connection to the Studio core was lost' })).toBeVisible();
    await expect(toolbar.getByText('Connection lost', { exact: true })).toBeVisible();
    await expect(toolbar.getByText('Connected', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: '/tmp/connection-lost.png' });
  } finally {
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  }
});
