import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, StudioPage } from './pages/studio';

// The console is as tall as the user makes it: dragged at its top edge (or with the keys there),
// kept for the workspace across a reload, and maximised over the canvas until Escape.

test('the console resizes by its top edge, keeps its height, and maximises', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  const consoleRegion = page.getByRole('region', { name: 'Console' });
  const handle = page.getByRole('separator', { name: 'Resize the console' });
  const start = (await consoleRegion.boundingBox())!;

  // Dragged up by 200 px, the console is 200 px taller and the canvas gives the room.
  const grip = (await handle.boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2 - 100, { steps: 5 });
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2 - 200, { steps: 5 });
  await page.mouse.up();
  const tall = Math.round(start.height + 200);
  await expect.poll(async () => Math.round((await consoleRegion.boundingBox())!.height)).toBe(tall);
  await expect(handle).toHaveAttribute('aria-valuenow', String(tall));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/console-tall.png` });
  await expect.poll(async () => (await studio.core.invoke('layout.get', {})).panels.console).toBe(tall);

  // Kept for the workspace: a reload shows it at that height.
  await page.reload();
  await expect(handle).toHaveAttribute('aria-valuenow', String(tall));
  await expect.poll(async () => Math.round((await consoleRegion.boundingBox())!.height)).toBe(tall);

  // The keys: End makes it as small as it goes, with its bar and composer still whole.
  await handle.focus();
  await page.keyboard.press('End');
  await expect(handle).toHaveAttribute('aria-valuenow', '150');
  await expect(app.console.message).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'New conversation' })).toBeInViewport({ ratio: 1 });

  // Maximised, it takes the whole middle column over the canvas; Escape gives the canvas back.
  await page.getByRole('button', { name: 'Maximise the console' }).click();
  const centre = (await page.getByRole('main', { name: 'Formation' }).boundingBox())!;
  const full = (await consoleRegion.boundingBox())!;
  expect(Math.round(full.height)).toBe(Math.round(centre.height));
  expect(Math.round(full.y)).toBe(Math.round(centre.y));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/console-max.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Maximise the console' })).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => Math.round((await consoleRegion.boundingBox())!.height)).toBe(150);
});
