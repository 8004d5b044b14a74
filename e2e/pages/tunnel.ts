import type { Locator, Page } from '@playwright/test';

/** "Reach from anywhere" in a capsule's Expose panel: open a tunnel, its link shown once, its calls. */
export class TunnelPage {
  readonly section: Locator;
  readonly provider: Locator;
  readonly lifetime: Locator;
  readonly open: Locator;
  readonly fresh: Locator;
  readonly link: Locator;
  readonly error: Locator;
  constructor(readonly page: Page) {
    this.section = page.locator('.expose-tunnels');
    this.provider = page.getByRole('combobox', { name: 'Tunnel provider' });
    this.lifetime = page.getByRole('combobox', { name: 'Tunnel lifetime' });
    this.open = page.getByRole('button', { name: 'Open a tunnel to the gateway' });
    this.fresh = page.getByRole('region', { name: 'New tunnel link' });
    this.link = this.fresh.getByRole('textbox', { name: 'Tunnel link' });
    this.error = this.section.getByRole('alert');
  }

  /** Unfolds or folds the section (its summary). */
  async toggle(): Promise<void> {
    await this.section.locator('> summary').click();
  }

  tunnel(publicUrl: string): Locator {
    return this.page.getByRole('region', { name: `Tunnel ${publicUrl}` });
  }

  calls(publicUrl: string): Locator {
    return this.page.getByRole('table', { name: `Calls through ${publicUrl}` });
  }
}
