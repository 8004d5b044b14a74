import type { Locator, Page } from '@playwright/test';

/** The Open dialog's folder browser (web shell): the folders the core lists under the home. */
export class FolderBrowserPage {
  readonly dialog: Locator;
  readonly browse: Locator;
  readonly group: Locator;
  readonly up: Locator;
  readonly hidden: Locator;
  readonly openHere: Locator;
  readonly path: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Open or create a workspace' });
    this.browse = this.dialog.getByRole('button', { name: 'Browse folders…' });
    this.group = this.dialog.getByRole('group', { name: 'Folder browser' });
    this.up = this.group.getByRole('button', { name: 'Up to the folder above' });
    this.hidden = this.group.getByRole('checkbox', { name: 'Hidden folders' });
    this.openHere = this.group.getByRole('button', { name: 'Open this folder' });
    this.path = this.dialog.getByRole('textbox', { name: 'Workspace folder' });
  }

  /** The Open… dialog, with its folder browser shown. */
  async show(): Promise<void> {
    await this.page.getByRole('button', { name: 'Open…' }).click();
    await this.browse.click();
  }

  folder(name: string, workspace = false): Locator {
    return this.group.getByRole('button', { name: `Folder ${name}${workspace ? ' (workspace)' : ''}`, exact: true });
  }

  /** The names of the folders listed. */
  async names(): Promise<string[]> {
    return this.group.locator('.folder-entry-name').allTextContents();
  }
}
