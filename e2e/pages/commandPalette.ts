import { expect, type Locator, type Page } from '@playwright/test';

// The command palette (Ctrl+K): a dialog with a combobox over a listbox of capsules and commands.

export class CommandPalettePage {
  readonly dialog: Locator;
  readonly input: Locator;
  readonly results: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Command palette' });
    this.input = this.dialog.getByRole('combobox', { name: 'Find a capsule or a command' });
    this.results = this.dialog.getByRole('listbox', { name: 'Results' });
  }

  /** Opens it with the keyboard shortcut. */
  async open(): Promise<void> {
    await this.page.keyboard.press('Control+K');
    await expect(this.input).toBeFocused();
  }

  option(name: string | RegExp): Locator {
    return this.results.getByRole('option', { name });
  }

  /** The option the arrows stand on (the one Enter runs). */
  active(): Locator {
    return this.results.locator('[role="option"][aria-selected="true"]');
  }

  /** Types a query and runs the best match with Enter. */
  async run(query: string, expectFirst?: string | RegExp): Promise<void> {
    await this.input.fill(query);
    if (expectFirst !== undefined) await expect(this.active()).toContainText(expectFirst);
    await this.page.keyboard.press('Enter');
    await expect(this.dialog).toBeHidden();
  }
}
