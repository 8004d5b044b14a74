import type { Locator, Page } from '@playwright/test';
import type { StudioPage } from './studio';

// Breakpoints on the canvas and a paused task in the inspector.

export class BreakpointsPage {
  constructor(readonly page: Page) {}

  /** "Open paused task" among a paused capsule node's actions. */
  openPaused(capsuleName: string): Locator {
    return this.page.getByRole('button', { name: `Open the paused task of ${capsuleName}` });
  }

  /** Sets a breakpoint on an edge from its context menu. */
  async setOnEdge(app: StudioPage, source: string, target: string): Promise<void> {
    await app.canvas
      .edge(source, target)
      .locator('.react-flow__edge-interaction')
      .click({ button: 'right', force: true });
    await app.tools.choose('Pause delegations here (breakpoint)');
  }

  /** The marks drawn over an edge while it has a breakpoint. */
  edgeBreakpoint(source: string, target: string): Locator {
    return this.page
      .locator(`.edge-labels[data-edge="${source}->${target}"]`)
      .getByRole('img', { name: 'Breakpoint on this connection' });
  }

  edgePaused(source: string, target: string): Locator {
    return this.page
      .locator(`.edge-labels[data-edge="${source}->${target}"]`)
      .getByRole('status', { name: /paused on this connection/ });
  }

  /** A paused task's box in its Tasks row. */
  paused(): Locator {
    return this.page.getByRole('group', { name: /^Task tsk_\S+ paused at a breakpoint$/ });
  }

  message(): Locator {
    return this.paused().getByRole('textbox');
  }

  button(name: 'Continue' | 'Step'): Locator {
    return this.paused().getByRole('button', { name, exact: true });
  }
}
