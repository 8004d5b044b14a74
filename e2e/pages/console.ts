import type { Locator, Page } from '@playwright/test';

/** The console: pick a capsule, send a message, read the task's state and answer. */
export class ConsolePage {
  readonly target: Locator;
  readonly message: Locator;
  readonly send: Locator;
  readonly entries: Locator;
  constructor(readonly page: Page) {
    const region = page.getByRole('region', { name: 'Console' });
    this.target = region.getByRole('combobox', { name: 'Capsule' });
    this.message = region.getByRole('textbox', { name: 'Message' });
    this.send = region.getByRole('button', { name: 'Send' });
    this.entries = page.getByTestId('console-entry');
  }

  async sendTo(capsuleId: string, text: string): Promise<Locator> {
    await this.target.selectOption(capsuleId);
    await this.message.fill(text);
    await this.send.click();
    return this.entries.last();
  }
}
