import { rmSync } from 'node:fs';
import { test as base, expect } from '@playwright/test';
import {
  connectContract,
  copyExampleWorkspace,
  startStudio,
  type ContractConnection,
  type StudioProcess,
} from './support/studio';

// One web shell per Playwright worker (started through the real CLI on port 0 with its own
// CAPSULE_HOME); every test gets its own fresh copy of the example workspace, opened before the
// page loads, and its running capsules are stopped afterwards.

export interface StudioFixture {
  /** The page's base URL. */
  url: string;
  /** The test's own workspace folder (a fresh copy of the example). */
  workspace: string;
  /** The contract over the same WebSocket the page uses (for setup and checks, not instead of the UI). */
  core: ContractConnection;
}

export const test = base.extend<{ studio: StudioFixture }, { studioServer: StudioProcess }>({
  studioServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startStudio();
      await use(server);
      await server.close();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  studio: async ({ studioServer }, use) => {
    const workspace = await copyExampleWorkspace();
    const core = await connectContract(studioServer.url);
    await core.invoke('workspace.open', { dir: workspace });
    await use({ url: studioServer.url, workspace, core });
    await core.invoke('formation.stop', {}).catch(() => undefined);
    // History commands wait for the steps still being written, so the folder is quiet before it goes.
    await core.invoke('history.list', {}).catch(() => undefined);
    core.close();
    rmSync(workspace, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  },
  // The page closes before its workspace is cleaned up (it depends on the studio fixture, so it is
  // torn down first): a console save it still had pending never lands in a folder being removed.
  page: async ({ page, studio }, use) => {
    void studio;
    await use(page);
    await page.close();
  },
  baseURL: async ({ studioServer }, use) => use(studioServer.url),
});

export { expect };
