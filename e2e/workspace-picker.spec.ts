import { expect, test } from './fixtures';

// The web shell has no system folder dialog: Open… keeps the typed path and offers none of the
// desktop's dialog buttons (its e2e checks the capability); its own folder browser is
// folder-browser.spec.ts.

test('the web shell opens a workspace by typed path, with no folder picker', async ({ page, studio }) => {
  void studio;
  await page.goto('/');
  await page.getByRole('button', { name: 'Open…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open or create a workspace' });
  await expect(dialog.getByRole('textbox', { name: 'Workspace folder' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Open workspace' })).toBeVisible();
  expect(await studio.core.invoke('studio.capabilities', {})).toMatchObject({
    pickFolder: false,
    secrets: { kind: 'file' },
  });
  await expect(dialog.getByRole('button', { name: 'Choose a folder to open…' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'New workspace in a folder…' })).toHaveCount(0);
});
