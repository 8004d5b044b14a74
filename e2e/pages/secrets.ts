import type { Locator, Page } from '@playwright/test';

/** The Secrets dialog (toolbar → Secrets). */
export class SecretsPage {
  readonly open: Locator;
  readonly dialog: Locator;
  readonly name: Locator;
  readonly value: Locator;
  readonly save: Locator;
  readonly status: Locator;
  constructor(readonly page: Page) {
    this.open = page.getByRole('button', { name: 'Secrets', exact: true });
    this.dialog = page.getByRole('dialog', { name: 'Secrets' });
    this.name = this.dialog.getByRole('textbox', { name: 'Secret name' });
    this.value = this.dialog.getByLabel('Value', { exact: true });
    this.save = this.dialog.getByRole('button', { name: 'Save secret' });
    this.status = this.dialog.getByRole('status');
  }

  async set(name: string, value: string): Promise<void> {
    await this.name.fill(name);
    await this.value.fill(value);
    await this.save.click();
  }

  row(name: string): Locator {
    return this.dialog.getByRole('row').filter({ hasText: name });
  }
}
