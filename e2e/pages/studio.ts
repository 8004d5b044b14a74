import { expect, type Locator, type Page } from '@playwright/test';
import { BreakpointsPage } from './breakpoints';
import { CanvasPage } from './canvas';
import { CanvasToolsPage } from './canvasTools';
import { CommandPalettePage } from './commandPalette';
import { ConsolePage } from './console';
import { ManifestPage } from './manifest';

/** Where specs save the screens they take, for a person to look at. */
export const SCREENSHOT_DIR = 'test-results/screenshots';

/** How `sendAndWait` sets the scene, and what it waits for. */
export interface SendAndWait {
  /** Launch all, then wait until these capsules read Idle; without it only the capsule sent to is launched (from its node). */
  launchAll?: readonly string[];
  /** An edge (source, target) given a breakpoint before the message goes: the task pauses there. */
  breakpoint?: readonly [string, string];
  /** The task paused at that breakpoint, or its console entry's final state. */
  until: 'paused' | 'COMPLETED' | 'FAILED' | 'CANCELED';
}

/** The whole Studio window: toolbar plus the feature page modules. */
export class StudioPage {
  readonly canvas: CanvasPage;
  readonly manifest: ManifestPage;
  readonly console: ConsolePage;
  readonly palette: CommandPalettePage;
  readonly tools: CanvasToolsPage;
  readonly breakpoints: BreakpointsPage;
  readonly launchAll: Locator;
  readonly stopAll: Locator;
  constructor(readonly page: Page) {
    this.canvas = new CanvasPage(page);
    this.manifest = new ManifestPage(page);
    this.console = new ConsolePage(page);
    this.palette = new CommandPalettePage(page);
    this.tools = new CanvasToolsPage(page);
    this.breakpoints = new BreakpointsPage(page);
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

  /**
   * Launches, sends `text` to capsule `to` from the console and waits until its task is where the
   * test starts from (paused at the breakpoint set on the way, or ended); its console entry and task id.
   */
  async sendAndWait(to: string, text: string, how: SendAndWait): Promise<{ entry: Locator; taskId: string }> {
    if (how.launchAll) await this.launchAndWait(how.launchAll);
    else {
      await this.canvas
        .capsule(to)
        .getByRole('button', { name: `Launch ${to}` })
        .click();
      await expect(this.stateOf(to)).toHaveText('Idle', { timeout: 20_000 });
    }
    if (how.breakpoint) await this.breakpoints.setOnEdge(this, ...how.breakpoint);
    const entry = await this.console.sendTo(to, text);
    if (how.until === 'paused') {
      if (!how.breakpoint) throw new Error('sendAndWait: a pause needs a breakpoint');
      await expect(this.breakpoints.edgePaused(...how.breakpoint)).toBeVisible({ timeout: 15_000 });
    } else await expect(entry.getByTestId('task-state')).toHaveText(how.until, { timeout: 20_000 });
    return { entry, taskId: await this.console.taskIdOf(entry) };
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
  }
}
