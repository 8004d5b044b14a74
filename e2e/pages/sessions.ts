import type { Locator, Page } from '@playwright/test';

/** The Sessions overlay: the sessions browser and the timeline. */
export class SessionsPage {
  readonly open: Locator;
  readonly dialog: Locator;
  readonly search: Locator;
  readonly list: Locator;
  readonly events: Locator;
  readonly timelineTasks: Locator;
  readonly forkForm: Locator;
  readonly family: Locator;
  readonly compare: Locator;
  constructor(readonly page: Page) {
    this.open = page.getByRole('button', { name: 'Sessions', exact: true });
    this.dialog = page.getByRole('dialog', { name: 'Sessions and timeline' });
    this.search = this.dialog.getByRole('searchbox', { name: 'Search sessions' });
    this.list = this.dialog.getByRole('list', { name: 'Sessions' });
    this.events = this.dialog.getByRole('list', { name: 'Session events' });
    this.timelineTasks = this.dialog.getByRole('list', { name: 'Tasks on the timeline' });
    this.forkForm = this.dialog.getByRole('form', { name: 'Fork from here' });
    this.family = this.dialog.getByRole('group', { name: 'Fork family' });
    this.compare = this.dialog.getByRole('region', { name: 'Compare runs' });
  }

  /** A cell of the comparison: e.g. cell(1, 'Message', 'B'), or cell(1, 'turn 2', 'A'). */
  compareCell(task: number, what: string, run: 'A' | 'B'): Locator {
    return this.compare.getByRole('cell', { name: new RegExp(`^Task ${task} ${what}, run ${run}`) });
  }

  /** The list entry of one session (its id is printed in the entry). */
  session(id: string): Locator {
    return this.list.getByRole('button').filter({ hasText: id });
  }

  /** The rendered rows of the opened session's trace (a windowed list: only these are in the DOM). */
  eventRows(): Locator {
    return this.events.getByRole('listitem');
  }

  /** The opened session's event count, as its header prints it. */
  eventCount(): Locator {
    return this.dialog.getByTestId('session-event-count');
  }
}
