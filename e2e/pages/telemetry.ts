import type { Locator, Page } from '@playwright/test';

/** The OpenTelemetry settings dialog (Tools → OpenTelemetry…). */
export class TelemetryPage {
  readonly dialog: Locator;
  readonly enabled: Locator;
  readonly endpoint: Locator;
  readonly protocol: Locator;
  readonly serviceName: Locator;
  readonly addHeader: Locator;
  readonly save: Locator;
  readonly status: Locator;
  readonly counts: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'OpenTelemetry' });
    this.enabled = this.dialog.getByRole('checkbox', { name: 'Export spans' });
    this.endpoint = this.dialog.getByRole('textbox', { name: 'Endpoint' });
    this.protocol = this.dialog.getByRole('combobox', { name: 'Protocol' });
    this.serviceName = this.dialog.getByRole('textbox', { name: 'Service name' });
    this.addHeader = this.dialog.getByRole('button', { name: 'Add header' });
    this.save = this.dialog.getByRole('button', { name: 'Save', exact: true });
    this.status = this.dialog.getByLabel('Export status');
    this.counts = this.dialog.getByTestId('otel-counts');
  }

  async openFromMenu(): Promise<void> {
    await this.page.getByRole('button', { name: 'Tools' }).click();
    await this.page.getByRole('menu', { name: 'Tools' }).getByRole('menuitem', { name: 'OpenTelemetry…' }).click();
  }

  /** Fills the last header row. */
  async header(name: string, value: string): Promise<void> {
    await this.addHeader.click();
    await this.dialog.getByRole('textbox', { name: 'Header name' }).last().fill(name);
    await this.dialog.getByLabel(`Value of ${name}`).fill(value);
  }
}
