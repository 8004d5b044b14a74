import type { Locator, Page } from '@playwright/test';

/** The toolbar's Tools menu and the Export for Kubernetes dialog it opens. */
export class ExportPage {
  readonly dialog: Locator;
  readonly folder: Locator;
  readonly namespace: Locator;
  readonly image: Locator;
  readonly host: Locator;
  readonly files: Locator;
  readonly edges: Locator;
  readonly export: Locator;
  readonly written: Locator;
  readonly confirm: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Export for Kubernetes' });
    this.folder = this.dialog.getByRole('textbox', { name: 'Folder' });
    this.namespace = this.dialog.getByRole('textbox', { name: 'Namespace' });
    this.image = this.dialog.getByRole('textbox', { name: 'Runtime image' });
    this.host = this.dialog.getByRole('textbox', { name: 'Ingress host' });
    this.files = this.dialog.getByRole('list', { name: 'Files of the export' });
    this.edges = this.dialog.getByRole('table', { name: 'Network policies per edge' });
    this.export = this.dialog.getByRole('button', { name: 'Export', exact: true });
    this.written = this.dialog.getByRole('status', { name: 'Export written' });
    this.confirm = this.dialog.getByRole('group', { name: 'Replace existing files' });
  }

  /** Opens it from the toolbar's Tools menu. */
  async openFromMenu(): Promise<void> {
    await this.page.getByRole('button', { name: 'Tools' }).click();
    await this.page
      .getByRole('menu', { name: 'Tools' })
      .getByRole('menuitem', { name: 'Export for Kubernetes…' })
      .click();
  }

  file(name: string): Locator {
    return this.files.getByRole('button', { name });
  }

  preview(name: string): Locator {
    return this.dialog.getByLabel(`Preview of ${name}`);
  }
}
