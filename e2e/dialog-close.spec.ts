import { expect, test } from './fixtures';

// The Tests and Secrets dialogs have no Cancel or Done of their own: a visible ✕ closes them
// (Escape was the only way, and nothing on screen said so).
test('Tests and Secrets close with a visible button', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('.react-flow__node')).toHaveCount(3);

  await page.getByRole('button', { name: 'Secrets' }).click();
  const secrets = page.getByRole('dialog', { name: 'Secrets' });
  await expect(secrets).toBeVisible();
  const closeSecrets = secrets.getByRole('button', { name: 'Close secrets' });
  await expect(closeSecrets).toBeInViewport();
  await closeSecrets.click();
  await expect(secrets).toBeHidden();

  await page.getByRole('button', { name: 'Tools ▾' }).click();
  await page.getByRole('menuitem', { name: 'Tests…' }).click();
  const tests = page.getByRole('dialog', { name: 'Tests' });
  await expect(tests).toBeVisible();
  const closeTests = tests.getByRole('button', { name: 'Close tests' });
  await expect(closeTests).toBeInViewport();
  await page.screenshot({ path: `${test.info().outputDir}/tests-dialog-close.png` });
  await closeTests.click();
  await expect(tests).toBeHidden();
});
