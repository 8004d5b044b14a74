import type { Locator, Page } from '@playwright/test';

/** The History and publish dialog: the published version, Publish, the steps and the diff. */
export class HistoryPage {
  readonly dialog: Locator;
  readonly published: Locator;
  readonly publish: Locator;
  readonly refused: Locator;
  readonly outcome: Locator;
  readonly publishAnyway: Locator;
  readonly steps: Locator;
  readonly diff: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'History' });
    this.published = this.dialog.getByRole('status', { name: 'Published version' });
    this.publish = this.dialog.getByRole('button', { name: 'Publish draft' });
    this.refused = this.dialog.getByRole('alert', { name: 'Publish refused' });
    this.outcome = this.dialog.getByRole('status', { name: 'Publish outcome' });
    this.publishAnyway = this.refused.getByRole('button', { name: 'Publish anyway' });
    this.steps = this.dialog.getByRole('list', { name: 'Steps' });
    this.diff = this.dialog.getByLabel('Diff');
  }

  /** Opens it from the toolbar's Tools menu. */
  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'Tools' }).click();
    await this.page
      .getByRole('menu', { name: 'Tools' })
      .getByRole('menuitem', { name: 'History and publish…' })
      .click();
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape');
  }

  /** The step whose message starts with `message` (the newest such). */
  step(message: string): Locator {
    return this.steps.getByRole('listitem').filter({ hasText: message }).first();
  }
}
