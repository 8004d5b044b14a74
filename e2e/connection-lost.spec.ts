import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

// Ctrl-C, then a new start on another port with the same CAPSULE_HOME: the page left open on the
// old address learns the new one there (the new web shell answers on the old port) and offers it
// instead of reconnecting forever; a click opens the Studio there.
test('when the Studio is started again on another port, the page offers the new address', async ({ page }) => {
  test.setTimeout(120_000);
  const workspace = await copyExampleWorkspace();
  const home = mkdtempSync(join(tmpdir(), 'studio-home-'));
  const first = await startStudio({ workspace, home });
  let second: Awaited<ReturnType<typeof startStudio>> | undefined;
  try {
    const app = new StudioPage(page);
    await page.goto(first.url);
    await expect(app.stateOf('writer')).toHaveText('Stopped');
    await first.close();
    await expect(page.getByRole('alert').filter({ hasText: 'connection to the Studio core was lost' })).toBeVisible();

    second = await startStudio({ workspace, home });
    expect(second.url).not.toBe(first.url);
    // The page tries again with a growing pause (up to 30 s between tries).
    const moved = page.getByRole('alert').filter({ hasText: 'was started again at' });
    await expect(moved).toContainText(second.url, { timeout: 45_000 });
    const toolbar = page.getByRole('banner');
    await expect(toolbar.getByText('Moved', { exact: true })).toBeVisible();
    await expect(toolbar.getByText('Connected', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: '/tmp/connection-moved.png' });

    await moved.getByRole('link', { name: `Open the Studio at ${second.url}` }).click();
    await expect(page).toHaveURL(`${second.url}/`);
    await expect(app.stateOf('writer')).toHaveText('Stopped');
    await expect(toolbar.getByText('Connected', { exact: true })).toBeVisible();
  } finally {
    await first.close();
    await second?.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
});
