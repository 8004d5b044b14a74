import { expect, type Locator, type Page } from '@playwright/test';

// The formation canvas and its palette. Drags are done as a user's are: after mouse.down() a 1 px
// nudge, because React Flow starts a drag only once the pointer has moved past its drag threshold
// (a first step taken whole would be swallowed by it), then moves in steps.

/** An orchestrator's delegation handle (right), not the tools handle every capsule has. */
const DELEGATE_HANDLE = '.react-flow__handle.source:not([data-handleid="tools"])';

export class CanvasPage {
  readonly canvas: Locator;
  constructor(readonly page: Page) {
    this.canvas = page.getByTestId('canvas');
  }

  /** A capsule node by the capsule's name (its aria-label). */
  capsule(name: string): Locator {
    return this.page.getByRole('group', { name, exact: true });
  }

  /** The xyflow wrapper of a node by id (for handles and positions). */
  nodeById(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`);
  }

  edges(): Locator {
    return this.page.locator('.react-flow__edge');
  }

  edge(source: string, target: string): Locator {
    return this.page.locator(`.react-flow__edge[data-id="${source}->${target}"]`);
  }

  async nodeIds(): Promise<string[]> {
    return this.page.locator('.react-flow__node').evaluateAll((ns) => ns.map((n) => n.getAttribute('data-id') ?? ''));
  }

  /** Drags a palette item ("Orchestrator", "Worker", "Remote agent") to a point of the canvas. */
  async dropFromPalette(item: string, at: { x: number; y: number }): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Palette' })
      .getByRole('button', { name: item, exact: true })
      .dragTo(this.canvas, { targetPosition: at });
  }

  /** Draws an edge from a node's source handle to another node's target handle. */
  /**
   * Waits until these stand still on screen: nodes may still be settling (a fit view, a placement
   * arriving from the core), and a drag that starts on a moving node grabs nothing.
   */
  private async settled(...targets: Locator[]): Promise<void> {
    const read = async () => JSON.stringify(await Promise.all(targets.map((t) => t.boundingBox())));
    let before = await read();
    await expect
      .poll(
        async () => {
          const now = await read();
          const same = now === before;
          before = now;
          return same;
        },
        { intervals: [150] },
      )
      .toBe(true);
  }

  async connect(sourceId: string, targetId: string, handle: 'delegate' | 'tools' = 'delegate'): Promise<void> {
    // Every capsule also has a tools handle (bottom) for edges to tool servers (MCP).
    const sourceHandle = handle === 'tools' ? '.react-flow__handle.source[data-handleid="tools"]' : DELEGATE_HANDLE;
    await this.settled(
      this.nodeById(sourceId).locator(sourceHandle),
      this.nodeById(targetId).locator('.react-flow__handle.target'),
    );
    const from = await this.nodeById(sourceId).locator(sourceHandle).boundingBox();
    const to = await this.nodeById(targetId).locator('.react-flow__handle.target').boundingBox();
    if (!from || !to) throw new Error(`handles of ${sourceId} or ${targetId} are not visible`);
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(from.x + from.width / 2 + 1, from.y + from.height / 2 + 1);
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
    await this.page.mouse.up();
  }

  /** Drags from a node's target handle (a worker's left side) onto another node's source handle: the wrong way round. */
  async connectBackwards(fromId: string, toId: string): Promise<void> {
    const from = await this.nodeById(fromId).locator('.react-flow__handle.target').boundingBox();
    const to = await this.nodeById(toId).locator(DELEGATE_HANDLE).boundingBox();
    if (!from || !to) throw new Error(`handles of ${fromId} or ${toId} are not visible`);
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(from.x + from.width / 2 + 1, from.y + from.height / 2 + 1);
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
    await this.page.mouse.up();
  }

  /** Selects an edge by clicking its path, then deletes it with the keyboard. */
  async deleteEdge(source: string, target: string): Promise<void> {
    const edge = this.edge(source, target);
    await edge.locator('.react-flow__edge-interaction').click({ force: true });
    await expect(edge).toHaveClass(/selected/);
    await this.page.keyboard.press('Delete');
  }

  /** The labels drawn over an edge (its address, the count in flight, its marks, its list of tasks). */
  edgeLabels(source: string, target: string): Locator {
    return this.page.locator(`.edge-labels[data-edge="${source}->${target}"]`);
  }

  /** The moving dashes drawn while delegations cross an edge. */
  edgeFlow(source: string, target: string): Locator {
    return this.edge(source, target).getByTestId('edge-flow');
  }

  /** The count of delegations in flight on an edge ("2 in flight"). */
  inFlight(source: string, target: string): Locator {
    return this.edgeLabels(source, target).getByRole('status', { name: /in flight$/ });
  }

  /** An edge's mark for the latest run's failed or canceled hops ("1 failed", "2 canceled"). */
  hopMark(source: string, target: string, kind: 'failed' | 'canceled'): Locator {
    return this.edgeLabels(source, target).getByLabel(new RegExp(`^\\d+ ${kind}$`));
  }

  /** Selects an edge by clicking its path and returns its list of the tasks that crossed it. */
  async openEdgeTasks(source: string, target: string): Promise<Locator> {
    const edge = this.edge(source, target);
    await edge.locator('.react-flow__edge-interaction').click({ force: true });
    await expect(edge).toHaveClass(/selected/);
    return this.edgeLabels(source, target).getByRole('region', { name: 'Tasks across this edge' });
  }

  /** A node's current task strip (state, turn, streamed text). */
  currentTask(name: string): Locator {
    return this.capsule(name).getByRole('status', { name: `Current task of ${name}` });
  }

  /** The text of a node's last output. */
  lastOutput(name: string): Locator {
    return this.capsule(name).getByLabel(`Last output of ${name}`, { exact: true });
  }

  async expandLastOutput(name: string): Promise<void> {
    await this.capsule(name)
      .getByRole('button', { name: `Expand last output of ${name}` })
      .click();
  }

  /** Copies a node's last output and returns what reached the clipboard (needs clipboard permissions). */
  async copyLastOutput(name: string): Promise<string> {
    const button = this.capsule(name).getByRole('button', { name: `Copy last output of ${name}` });
    await button.click();
    await expect(button).toHaveText('Copied');
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** Drags a node by its header to a new screen point. */
  async dragNode(id: string, dx: number, dy: number): Promise<void> {
    await this.settled(this.nodeById(id));
    const box = await this.nodeById(id).boundingBox();
    if (!box) throw new Error(`node ${id} is not visible`);
    // The header, clear of the buttons; the centre when the node is drawn small (zoomed out).
    const x = box.x + Math.min(40, box.width / 2);
    const y = box.y + Math.min(12, box.height / 2);
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + 1, y + 1);
    await this.page.mouse.move(x + dx, y + dy, { steps: 10 });
    await this.page.mouse.up();
  }

  /** Selects a node by clicking its header (not a button). */
  async select(name: string): Promise<void> {
    await this.capsule(name).click({ position: { x: 60, y: 14 } });
  }
}
