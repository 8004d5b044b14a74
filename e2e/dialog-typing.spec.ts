import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { CommandPalettePage } from './pages/commandPalette';
import { SecretsPage } from './pages/secrets';
import { TelemetryPage } from './pages/telemetry';
import { ExportPage } from './pages/tools';
import { StudioPage } from './pages/studio';

// Every dialog with several fields, typed into key by key the way a user types (not pasted): each
// key lands in the field the user clicked, and focus stays there until the user moves it.

async function typeKeyByKey(page: Page, field: Locator, text: string): Promise<void> {
  await field.click();
  await field.press('Control+A');
  await field.press('Delete');
  await page.keyboard.type(text, { delay: 15 });
  await expect(field).toHaveValue(text);
  await expect(field).toBeFocused();
}

async function typeIntoEach(page: Page, dialog: Locator, fields: Locator[]): Promise<void> {
  await expect(dialog).toBeVisible();
  // Last field first: a dialog that snaps focus back to its first field is caught on the first key.
  for (const [i, field] of [...fields].reverse().entries()) await typeKeyByKey(page, field, `typed-${i}-abc`);
  // Nothing typed in one field leaked into another.
  for (const [i, field] of [...fields].reverse().entries()) await expect(field).toHaveValue(`typed-${i}-abc`);
}

test('typing key by key in every dialog with several fields keeps each key in its field', async ({ page, studio }) => {
  void studio; // the fixture opened this test's own workspace
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');

  const palette = new CommandPalettePage(page);
  await palette.open();
  await palette.run('attach runtime', 'Attach runtime…');
  const attach = page.getByRole('dialog', { name: 'Attach a runtime' });
  await typeIntoEach(page, attach, [
    attach.getByLabel('Runtime URL'),
    attach.getByLabel('Token'),
    attach.getByLabel('Label (optional)'),
  ]);
  await page.keyboard.press('Escape');
  await expect(attach).toBeHidden();

  const secrets = new SecretsPage(page);
  await secrets.open.click();
  await typeIntoEach(page, secrets.dialog, [
    secrets.name,
    secrets.value,
    secrets.dialog.getByRole('textbox', { name: 'New environment name' }),
  ]);
  await page.keyboard.press('Escape');
  await expect(secrets.dialog).toBeHidden();

  const telemetry = new TelemetryPage(page);
  await telemetry.openFromMenu();
  await telemetry.addHeader.click();
  await typeIntoEach(page, telemetry.dialog, [
    telemetry.endpoint,
    telemetry.serviceName,
    telemetry.dialog.getByRole('textbox', { name: 'Header name' }),
  ]);
  await page.keyboard.press('Escape');
  await expect(telemetry.dialog).toBeHidden();

  const exporter = new ExportPage(page);
  await exporter.openFromMenu();
  await typeIntoEach(page, exporter.dialog, [exporter.namespace, exporter.image, exporter.host, exporter.folder]);
  await page.keyboard.press('Escape');
  await expect(exporter.dialog).toBeHidden();
});
