import type { Locator, Page } from '@playwright/test';

/** The manifest panel of the selected capsule: form, YAML, problems, conflict choices. */
export class ManifestPage {
  readonly yaml: Locator;
  readonly problems: Locator;
  readonly save: Locator;
  readonly status: Locator;
  constructor(readonly page: Page) {
    this.yaml = page.getByRole('textbox', { name: 'Manifest YAML' });
    this.problems = page.getByRole('list', { name: 'Manifest problems' });
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.status = page.locator('.manifest-status');
  }

  async openTab(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Manifest' }).click();
  }

  async showYaml(): Promise<void> {
    await this.page.getByRole('tab', { name: 'YAML' }).click();
  }

  async showForm(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Form' }).click();
  }

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  /** A problem entry that names a line. */
  problemAtLine(line: number): Locator {
    return this.problems.getByRole('button', { name: new RegExp(`^Line ${line}:`) });
  }
}
