import { expect, test } from './fixtures';
import { boxOf, intersects } from './helpers/boxes';
import { StudioPage } from './pages/studio';

// Notices (toasts) stand over the canvas, above the console: they never cover the side panel's
// controls. Shown with a notice up: the YAML editor and its Save button, then the expose bar and
// its switch, each checked as boxes on screen; and the notice itself stays clickable.

test('a notice covers neither the YAML editor nor the expose bar', async ({ page }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  await app.manifest.openTab();
  await app.manifest.showYaml();

  // Saving a manifest with a problem in it raises a warning notice.
  const text = (await app.manifest.yamlText()).replace(/queue_depth: \d+|lifecycle:\n/, (m) =>
    m.startsWith('lifecycle') ? 'lifecycle:\n  queue_depth: lots\n' : 'queue_depth: lots',
  );
  await app.manifest.setYaml(text);
  await app.manifest.save.click();
  const notice = app.notice(/Saved with 1 problem/);
  await expect(notice).toBeVisible();

  const side = page.locator('aside.studio-side');
  const covered = async () => {
    const n = await boxOf(notice);
    return {
      side: intersects(n, await boxOf(side)),
      editor: intersects(n, await boxOf(app.manifest.yaml)),
      save: intersects(n, await boxOf(app.manifest.save)),
    };
  };
  expect(await covered()).toEqual({ side: false, editor: false, save: false });

  // The expose bar at the panel's foot, opened while the notice shows.
  const exposeBar = page.getByText('Expose to outside callers');
  await exposeBar.click();
  const exposeSwitch = page.getByRole('switch', { name: 'Expose writer through the gateway' });
  await expect(exposeSwitch).toBeVisible();
  await expect(notice).toBeVisible();
  const n = await boxOf(notice);
  expect(intersects(n, await boxOf(exposeBar))).toBe(false);
  expect(intersects(n, await boxOf(exposeSwitch))).toBe(false);
  expect(intersects(n, await boxOf(side))).toBe(false);
  // Nor does it hide the console's composer below it.
  expect(intersects(n, await boxOf(page.getByRole('button', { name: 'Send' })))).toBe(false);
  await page.screenshot({ path: test.info().outputPath('notice-place.png') });

  await notice.getByRole('button', { name: 'Dismiss notice' }).click();
  await expect(notice).toHaveCount(0);
});

// With the details panel at full width (laid over the canvas), a notice stands in a strip under the
// toolbar: it covers none of the panel (its editor, its expose bar), and goes back over the canvas
// once the panel is back at the side.
test('a notice stands under the toolbar while the details panel covers the canvas', async ({ page }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  await app.manifest.openTab();
  await app.manifest.showYaml();
  await page.getByRole('button', { name: 'Details panel full width' }).click();
  const side = page.locator('aside.studio-side');
  await expect(side).toHaveAttribute('data-full', 'true');

  const text = (await app.manifest.yamlText()).replace(/queue_depth: \d+|lifecycle:\n/, (m) =>
    m.startsWith('lifecycle') ? 'lifecycle:\n  queue_depth: lots\n' : 'queue_depth: lots',
  );
  await app.manifest.setYaml(text);
  await app.manifest.save.click();
  const notice = app.notice(/Saved with 1 problem/);
  await expect(notice).toBeVisible();
  const n = await boxOf(notice);
  expect(intersects(n, await boxOf(side))).toBe(false);
  expect(intersects(n, await boxOf(page.locator('.toolbar')))).toBe(false);
  await page.getByText('Expose to outside callers').click();
  await expect(notice).toBeVisible();
  expect(intersects(await boxOf(notice), await boxOf(side))).toBe(false);
  await page.screenshot({ path: test.info().outputPath('notice-strip.png') });

  // Back at the side: the notice returns over the canvas.
  await page.keyboard.press('Escape');
  await expect(side).not.toHaveAttribute('data-full', 'true');
  await expect(notice).toBeVisible();
  expect(intersects(await boxOf(notice), await boxOf(page.locator('.canvas-area')))).toBe(true);
});
