import type { Locator, Page } from '@playwright/test';

/** The Tests panel (Tools → Tests…). */
export class TestsPage {
  readonly dialog: Locator;
  readonly list: Locator;
  readonly runAll: Locator;
  readonly progress: Locator;
  readonly detail: Locator;
  readonly differences: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Tests' });
    this.list = this.dialog.getByRole('list', { name: 'Tests' });
    this.runAll = this.dialog.getByRole('button', { name: 'Run all' });
    this.progress = this.dialog.getByRole('status', { name: 'Test progress' });
    this.detail = this.dialog.getByLabel('Test detail');
    this.differences = this.detail.getByRole('region', { name: 'Differences' });
  }

  async openFromMenu(): Promise<void> {
    await this.page.getByRole('button', { name: 'Tools' }).click();
    await this.page.getByRole('menu', { name: 'Tools' }).getByRole('menuitem', { name: 'Tests…' }).click();
  }

  /** The pass/fail word of one test in the list. */
  stateOf(name: string): Locator {
    return this.list.getByLabel(new RegExp(`^${name}: `));
  }

  show(name: string): Promise<void> {
    return this.list.getByRole('button', { name: `Show test ${name}` }).click();
  }

  run(name: string): Promise<void> {
    return this.list.getByRole('button', { name: `Run test ${name}` }).click();
  }

  /** The expected-vs-actual table of one task of the shown test. */
  task(n: number): Locator {
    return this.detail.getByRole('table', { name: `Task ${n} expected and actual` });
  }
}
