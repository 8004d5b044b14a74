import type { Locator, Page } from '@playwright/test';

/** The side panel of a capsule: its tabs, the task inspector, the live trace, and the panel's own size. */
export class InspectorPage {
  readonly resizeHandle: Locator;
  readonly fullWidth: Locator;
  readonly restoreWidth: Locator;
  readonly tasks: Locator;
  readonly liveTrace: Locator;
  constructor(readonly page: Page) {
    this.resizeHandle = page.getByRole('separator', { name: 'Resize the details panel' });
    this.fullWidth = page.getByRole('button', { name: 'Details panel full width' });
    this.restoreWidth = page.getByRole('button', { name: 'Restore the details panel width' });
    this.tasks = page.getByRole('list', { name: 'Tasks' });
    this.liveTrace = page.getByRole('table', { name: 'Live trace' });
  }

  /** The side panel showing a capsule's details. */
  panel(capsuleName: string): Locator {
    return this.page.getByRole('complementary', { name: `Details of ${capsuleName}` });
  }

  async openTab(name: 'Manifest' | 'Tasks' | 'Live trace'): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }

  task(taskId: string): Locator {
    return this.tasks.getByRole('listitem', { name: `Task ${taskId}` });
  }

  /** The open details of a task. */
  detail(taskId: string): Locator {
    return this.page.getByRole('group', { name: `Details of task ${taskId}` });
  }

  /** Opens a task's details in the Tasks tab (the tab must show). */
  async openTask(taskId: string): Promise<Locator> {
    await this.page.getByRole('button', { name: `Show details of task ${taskId}` }).click();
    return this.detail(taskId);
  }

  /** One section of a task's details: Status, Messages, Artifacts, Turns, Delegations, History, Residue. */
  section(taskId: string, title: string): Locator {
    return this.detail(taskId).getByRole('region', { name: title, exact: true });
  }

  /** The Tools cell of one turn in a task's Turns table (its fourth column: Turn, Start, Model, Tools). */
  turnTools(taskId: string, turn: number): Locator {
    return this.section(taskId, 'Turns')
      .getByRole('row', { name: `Turn ${turn}`, exact: true })
      .getByRole('cell')
      .nth(3);
  }

  /** The link that opens a delegation's child task in its capsule. */
  delegationLink(taskId: string, capsuleName: string): Locator {
    return this.section(taskId, 'Delegations').getByRole('button', {
      name: new RegExp(`^Open ${capsuleName}'s task tsk_`),
    });
  }

  /** A live trace row by the text it shows. */
  traceRow(text: string | RegExp): Locator {
    return this.liveTrace.getByRole('row').filter({ hasText: text });
  }

  /** The side panel's width in CSS pixels. */
  async panelWidth(capsuleName: string): Promise<number> {
    return (await this.panel(capsuleName).boundingBox())!.width;
  }

  /** Drags the panel's left edge by dx pixels (negative: to the left, wider). */
  async dragEdge(dx: number): Promise<void> {
    const box = (await this.resizeHandle.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + Math.sign(dx), y);
    await this.page.mouse.move(x + dx, y, { steps: 8 });
    await this.page.mouse.up();
  }
}
