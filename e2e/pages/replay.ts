import type { Locator, Page } from '@playwright/test';

/** The Replay bar: replay mode's controls over the canvas. */
export class ReplayPage {
  readonly bar: Locator;
  readonly play: Locator;
  readonly pause: Locator;
  readonly step: Locator;
  readonly nextHop: Locator;
  readonly speed: Locator;
  readonly scrubber: Locator;
  readonly position: Locator;
  readonly jumpToEnd: Locator;
  readonly exit: Locator;
  constructor(readonly page: Page) {
    this.bar = page.getByRole('region', { name: 'Replay' });
    this.play = this.bar.getByRole('button', { name: 'Play', exact: true });
    this.pause = this.bar.getByRole('button', { name: 'Pause', exact: true });
    this.step = this.bar.getByRole('button', { name: 'Step', exact: true });
    this.nextHop = this.bar.getByRole('button', { name: 'Next hop' });
    this.speed = this.bar.getByRole('combobox', { name: 'Replay speed' });
    this.scrubber = this.bar.getByRole('slider', { name: 'Replay position' });
    this.position = this.bar.getByTestId('replay-position');
    this.jumpToEnd = this.bar.getByRole('button', { name: 'Jump to end' });
    this.exit = this.bar.getByRole('button', { name: 'Exit replay' });
  }

  /** Steps played and steps in all, as the bar prints them ("3/40 · …"). */
  async cursor(): Promise<{ at: number; of: number }> {
    const m = /^(\d+)\/(\d+)/.exec((await this.position.textContent()) ?? '');
    return { at: Number(m?.[1]), of: Number(m?.[2]) };
  }
}
