import { expect, type Locator, type Page } from '@playwright/test';

// The canvas's own tools: its context menu, multi-selection, auto-layout and the minimap.

export class CanvasToolsPage {
  readonly menu: Locator;
  readonly autoLayout: Locator;
  readonly minimapToggle: Locator;
  readonly minimap: Locator;
  readonly fitView: Locator;
  constructor(readonly page: Page) {
    this.menu = page.getByRole('menu');
    this.autoLayout = page.getByTestId('canvas').getByRole('button', { name: 'Auto-layout', exact: true });
    this.minimapToggle = page.getByRole('button', { name: 'Minimap', exact: true });
    this.minimap = page.locator('.react-flow__minimap');
    this.fitView = page.getByRole('button', { name: 'Fit view', exact: true });
  }

  node(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`);
  }

  /** Right-clicks a node's header and waits for its menu. */
  async menuOnNode(id: string): Promise<Locator> {
    await this.node(id).click({ button: 'right', position: { x: 60, y: 14 } });
    await expect(this.menu).toBeVisible();
    return this.menu;
  }

  /** Right-clicks an empty point of the canvas (pixels from its top-left corner). */
  async menuOnPane(at: { x: number; y: number }): Promise<Locator> {
    await this.page.getByTestId('canvas').locator('.react-flow__pane').click({ button: 'right', position: at });
    await expect(this.menu).toBeVisible();
    return this.menu;
  }

  async choose(item: string | RegExp): Promise<void> {
    await this.menu.getByRole('menuitem', { name: item }).click();
    await expect(this.menu).toBeHidden();
  }

  /** Adds a node to the selection with Shift-click on its header. */
  async shiftClick(id: string): Promise<void> {
    await this.node(id).click({ modifiers: ['Shift'], position: { x: 60, y: 14 } });
  }

  /** Draws a selection box with Shift-drag between two page points. */
  async boxSelect(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    await this.page.keyboard.down('Shift');
    await this.page.mouse.move(from.x, from.y);
    await this.page.mouse.down();
    await this.page.mouse.move(from.x + 2, from.y + 2);
    await this.page.mouse.move(to.x, to.y, { steps: 8 });
    await this.page.mouse.up();
    await this.page.keyboard.up('Shift');
  }

  selectedIds(): Promise<string[]> {
    return this.page
      .locator('.react-flow__node.selected')
      .evaluateAll((ns) => ns.map((n) => n.getAttribute('data-id') ?? ''));
  }

  /** Node boxes on screen, by id. */
  boxes(): Promise<Record<string, { x: number; y: number; width: number; height: number }>> {
    return this.page.locator('.react-flow__node').evaluateAll((ns) =>
      Object.fromEntries(
        ns.map((n) => {
          const r = n.getBoundingClientRect();
          return [n.getAttribute('data-id') ?? '', { x: r.x, y: r.y, width: r.width, height: r.height }];
        }),
      ),
    );
  }
}
