import { expect, type Locator, type Page } from '@playwright/test';
import { CanvasPage } from './canvas';
import { CanvasToolsPage } from './canvasTools';
import { CommandPalettePage } from './commandPalette';
import { ConsolePage } from './console';
import { ManifestPage } from './manifest';

/** Where specs save the screens they take, for a person to look at. */
export const SCREENSHOT_DIR = 'test-results/screenshots';

/** The whole Studio window: toolbar plus the feature page modules. */
export class StudioPage {
  readonly canvas: CanvasPage;
  readonly manifest: ManifestPage;
  readonly console: ConsolePage;
  readonly palette: CommandPalettePage;
  readonly tools: CanvasToolsPage;
  readonly launchAll: Locator;
  readonly stopAll: Locator;
  constructor(readonly page: Page) {
    this.canvas = new CanvasPage(page);
    this.manifest = new ManifestPage(page);
    this.console = new ConsolePage(page);
    this.palette = new CommandPalettePage(page);
    this.tools = new CanvasToolsPage(page);
    this.launchAll = page.getByRole('button', { name: 'Launch all' });
    this.stopAll = page.getByRole('button', { name: 'Stop all' });
  }

  /** A notice (toast) containing some text. */
  notice(text: string | RegExp): Locator {
    return this.page.locator('.notice').filter({ hasText: text });
  }

  /** The state word shown on a capsule node (Stopped, Idle, Busy, …). */
  stateOf(name: string): Locator {
    return this.canvas.capsule(name).locator('.capsule-node-state');
  }

  /** Launch all, then wait until each named capsule reads Idle. */
  async launchAndWait(names: readonly string[]): Promise<void> {
    await this.launchAll.click();
    for (const name of names) await expect(this.stateOf(name)).toHaveText('Idle', { timeout: 20_000 });
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
  }
}
