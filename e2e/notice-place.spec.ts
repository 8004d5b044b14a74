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
