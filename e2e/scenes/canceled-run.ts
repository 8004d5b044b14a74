import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, type StudioFixture } from '../fixtures';
import { StudioPage } from '../pages/studio';

/**
 * The example's coordinator asked a task and canceled while its delegations are on their way (the
 * workers made slow first): the entry reads CANCELED and the edge to the writer marks one canceled.
 */
export async function cancelWhileDelegating(page: Page, studio: StudioFixture) {
  for (const name of ['researcher', 'writer']) {
    const file = join(studio.workspace, 'capsules', `${name}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 10000'));
  }
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = new StudioPage(page);
  const canvas = app.canvas;
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('coordinator', 'A note, then never mind');
  await expect(canvas.inFlight('coordinator', 'writer')).toHaveAccessibleName('1 in flight', { timeout: 10_000 });
  await entry.getByRole('button', { name: 'Cancel' }).click();
  await expect(entry.getByTestId('task-state')).toHaveText('CANCELED', { timeout: 20_000 });
  await expect(canvas.hopMark('coordinator', 'writer', 'canceled')).toHaveAccessibleName('1 canceled');
  return { app, canvas, entry };
}
