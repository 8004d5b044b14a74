import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// A part whose code loads on first use, and cannot (the Studio was rebuilt under the open page):
// the part says what failed, with Reload, and the rest of the window goes on working. Reloaded
// (the code there again), the part opens.

test('a part whose code fails to load says so in its place, with Reload, and the page stays', async ({ page }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('writer')).toBeVisible();
  // The manifest editor's chunk is gone, as after a rebuild of out/ under the running page.
  await page.route('**/assets/manifest-*.js', (route) => route.abort());
  await app.canvas.select('writer');
  const failed = page.getByRole('alert').filter({ hasText: 'Could not load the manifest editor' });
  await expect(failed).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('part-failed.png') });
  // The rest of the window still answers: the canvas, the toolbar, another tab of the panel.
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Launch all' })).toBeEnabled();
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(page.getByRole('tabpanel')).not.toContainText('Could not load');

  await page.unroute('**/assets/manifest-*.js');
  await page.getByRole('tab', { name: 'Manifest' }).click();
  await page.getByRole('button', { name: 'Reload' }).click();
  await app.canvas.select('writer');
  await app.manifest.openTab();
  await expect(app.manifest.save).toBeVisible();
  await expect(failed).toHaveCount(0);
});
