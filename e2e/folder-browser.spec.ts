import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { FolderBrowserPage } from './pages/folderBrowser';
import { connectContract, EXAMPLE, startStudio, type StudioProcess } from './support/studio';

// The web shell has no system folder dialog: Open… offers a folder browser that lists the folders
// under the user's home (and nothing outside it), and opens the folder clicked down to.

let server: StudioProcess | undefined;
let base: string | undefined;
test.afterEach(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

test('picks a workspace by clicking through the folders of the home, and opens it', async ({ page }) => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'studio-browse-')));
  const home = join(base, 'home');
  const tides = join(home, 'projects', 'tides');
  mkdirSync(join(home, 'Documents'), { recursive: true });
  mkdirSync(join(home, '.cache'));
  mkdirSync(join(base, 'outside'));
  symlinkSync(join(base, 'outside'), join(home, 'escape'));
  cpSync(EXAMPLE, tides, { recursive: true });
  server = await startStudio({ env: { HOME: home } });

  await page.goto(server.url);
  const browser = new FolderBrowserPage(page);
  await browser.show();
  await expect(browser.group).toContainText(`${home} (home)`);
  // The home's folders; hidden ones on request; never a link that leads out of the home.
  await expect.poll(() => browser.names()).toEqual(['Documents', 'projects']);
  await expect(browser.up).toBeDisabled();
  await browser.hidden.check();
  await expect.poll(() => browser.names()).toEqual(['.cache', 'Documents', 'projects']);
  await browser.hidden.uncheck();

  await browser.folder('projects').click();
  await expect(browser.path).toHaveValue(join(home, 'projects'));
  await expect(browser.folder('tides', true)).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/folder-browser.png' });
  await browser.folder('tides', true).click();
  await expect(browser.path).toHaveValue(tides);
  await browser.openHere.click();
  await expect(browser.dialog).toBeHidden();

  const core = await connectContract(server.url);
  try {
    expect(await core.invoke('workspace.current', {})).toEqual({ dir: tides });
    // The core refuses what the page never offers: a folder outside the home.
    await expect(core.invoke('workspace.browse', { dir: join(home, 'escape') })).rejects.toThrow(
      /outside your home folder/,
    );
  } finally {
    core.close();
  }
});
