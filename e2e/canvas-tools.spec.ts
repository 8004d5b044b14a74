import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { expect, test } from './fixtures';
import { manifestExists, readManifest, removeOpenedWorkspace } from './helpers/workspace';
import { StudioPage } from './pages/studio';
import { copyExampleWorkspace } from './support/studio';

// What people expect of a canvas: Ctrl+K to find a capsule or run a command, a context menu,
// multi-selection with one confirm and one undo, duplicate, auto-layout (for formations without
// positions and on demand), the minimap; screenshots of them in both themes.

test.use({ viewport: { width: 1440, height: 900 } });

const overlapping = (boxes: Record<string, { x: number; y: number; width: number; height: number }>) => {
  const list = Object.entries(boxes);
  const bad: string[] = [];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = [list[i][1], list[j][1]];
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        bad.push(`${list[i][0]}/${list[j][0]}`);
    }
  return bad;
};

test('Ctrl+K finds a capsule by part of its name, selects it and centres it; it runs commands too', async ({
  page,
  studio,
}) => {
  void studio;
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  // Move the view away first, so the centring is seen.
  await page.mouse.move(700, 450);
  await page.mouse.wheel(0, 600);

  await app.palette.open();
  await app.palette.input.fill('wrtr');
  await expect(app.palette.active()).toContainText('writer');
  // Arrows move through the results and wrap; Escape closes and nothing is run.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Escape');
  await expect(app.palette.dialog).toBeHidden();

  await app.palette.open();
  await app.palette.run('wri', 'writer');
  await expect(page.getByRole('complementary', { name: 'Details of writer' })).toBeVisible();
  await expect(app.tools.node('writer')).toHaveClass(/selected/);
  // The keyboard is on the picked node, not lost on the page.
  await expect(app.tools.node('writer')).toBeFocused();
  // Centred in what the canvas shows: below its own buttons (Auto-layout, Minimap, Fit view).
  const canvas = (await page.getByTestId('canvas').boundingBox())!;
  const buttonsBottom = await page
    .locator('.react-flow__panel.top')
    .evaluateAll((ps) => Math.max(0, ...ps.map((p) => p.getBoundingClientRect().bottom)));
  const visibleTop = Math.max(canvas.y, buttonsBottom);
  await expect
    .poll(async () => {
      const b = (await app.tools.node('writer').boundingBox())!;
      return Math.hypot(
        b.x + b.width / 2 - (canvas.x + canvas.width / 2),
        b.y + b.height / 2 - (visibleTop + canvas.y + canvas.height) / 2,
      );
    })
    .toBeLessThan(20);
  await page.screenshot({ path: test.info().outputPath('palette-pick.png') });

  // A query that matches nothing says so; a command runs from its title.
  await app.palette.open();
  await app.palette.input.fill('zzzq');
  await expect(app.palette.dialog.getByRole('status')).toHaveText(/Nothing matches/);
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? 'system');
  await app.palette.run('toggle theme', 'Toggle theme');
  await expect
    .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
    .not.toBe(before === 'system' ? undefined : before);
  await app.palette.open();
  await app.palette.run('open sessions', 'Open sessions');
  await expect(page.getByRole('dialog', { name: 'Sessions and timeline' })).toBeVisible();
});

test('the context menu duplicates a capsule (new name, same manifest) and undo takes the copy back', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('writer')).toBeVisible();

  const menu = await app.tools.menuOnNode('writer');
  await expect(menu).toHaveAccessibleName('Actions for writer');
  await expect(menu.getByRole('menuitem', { name: 'Launch' })).toBeFocused();
  await app.tools.choose('Duplicate');
  await expect(app.canvas.capsule('writer-copy')).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Details of writer-copy' })).toBeVisible();
  const copy = readManifest(studio.workspace, 'capsules/writer-copy.yaml');
  const original = readManifest(studio.workspace, 'capsules/writer.yaml');
  expect(copy.name).toBe('writer-copy');
  expect(copy.network?.internal_port).toBeUndefined();
  expect({ ...copy, name: undefined, network: undefined }).toEqual({
    ...original,
    name: undefined,
    network: undefined,
  });
  // No edge leads to the copy; the copy sits clear of the other nodes.
  await expect(app.canvas.edge('coordinator', 'writer-copy')).toHaveCount(0);
  expect(overlapping(await app.tools.boxes())).toEqual([]);

  await page
    .getByTestId('canvas')
    .locator('.react-flow__pane')
    .click({ position: { x: 20, y: 20 } });
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled(); // the edit's answer came back: its step is recorded
  await page.keyboard.press('Control+Z');
  await expect(app.canvas.capsule('writer-copy')).toHaveCount(0);
  expect(manifestExists(studio.workspace, 'capsules/writer-copy.yaml')).toBe(false);

  // The keyboard reaches it too: Shift+F10 on a focused node, arrows, Escape.
  await app.tools.node('researcher').focus();
  await page.keyboard.press('Shift+F10');
  await expect(app.tools.menu).toHaveAccessibleName('Actions for researcher');
  await page.keyboard.press('ArrowDown');
  await expect(app.tools.menu.getByRole('menuitem', { name: 'Duplicate' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(app.tools.menu).toBeHidden();
  await expect(app.tools.node('researcher')).toBeFocused();

  // Open manifest shows the capsule's manifest in the side panel.
  await app.tools.menuOnNode('researcher');
  await app.tools.choose('Open manifest');
  await expect(
    page.getByRole('complementary', { name: 'Details of researcher' }).getByRole('tab', { name: 'Manifest' }),
  ).toHaveAttribute('aria-selected', 'true');

  // On an edge, the menu removes the connection (the allow entry goes from the manifest).
  await app.canvas
    .edge('coordinator', 'writer')
    .locator('.react-flow__edge-interaction')
    .click({ button: 'right', force: true });
  await expect(app.tools.menu).toHaveAccessibleName('Actions for the connection');
  await app.tools.choose('Remove connection');
  await expect(app.canvas.edge('coordinator', 'writer')).toHaveCount(0);

  // The toolbar's Find… opens the palette too.
  await page.getByRole('button', { name: 'Command palette' }).click();
  await expect(app.palette.input).toBeFocused();
  await page.keyboard.press('Escape');
});

test('several nodes selected are moved together, and deleted with one confirm and one undo', async ({
  page,
  studio,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('writer')).toBeVisible();

  await app.canvas.select('researcher');
  await app.tools.shiftClick('writer');
  expect((await app.tools.selectedIds()).sort()).toEqual(['researcher', 'writer']);

  // Dragging one moves both, and one Ctrl+Z puts both back.
  const start = parse(readFileSync(join(studio.workspace, 'formation.yaml'), 'utf8')).capsules;
  await app.canvas.dragNode('writer', 120, 40);
  await expect
    .poll(
      () =>
        parse(readFileSync(join(studio.workspace, 'formation.yaml'), 'utf8')).capsules.filter(
          (c: { position: { x: number } }, i: number) => c.position.x !== start[i].position.x,
        ).length,
    )
    .toBe(2);
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled(); // the edit's answer came back: its step is recorded
  await page.keyboard.press('Control+Z');
  await expect
    .poll(() => parse(readFileSync(join(studio.workspace, 'formation.yaml'), 'utf8')).capsules)
    .toEqual(start);

  // A Shift-drag box selects what it covers.
  await page
    .getByTestId('canvas')
    .locator('.react-flow__pane')
    .click({ position: { x: 20, y: 20 } });
  expect(await app.tools.selectedIds()).toEqual([]);
  const r = (await app.tools.node('researcher').boundingBox())!;
  const w = (await app.tools.node('writer').boundingBox())!;
  await app.tools.boxSelect(
    { x: Math.min(r.x, w.x) - 20, y: r.y - 20 },
    { x: Math.max(r.x + r.width, w.x + w.width) + 20, y: w.y + w.height + 20 },
  );
  expect((await app.tools.selectedIds()).sort()).toEqual(['researcher', 'writer']);

  await page.keyboard.press('Delete');
  const dialog = page.getByRole('dialog', { name: 'Remove 2 nodes?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(app.canvas.capsule('writer')).toHaveCount(0);
  await expect(app.canvas.capsule('researcher')).toHaveCount(0);
  expect(manifestExists(studio.workspace, 'capsules/writer.yaml')).toBe(false);

  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled(); // the edit's answer came back: its step is recorded
  await page.keyboard.press('Control+Z');
  await expect(app.canvas.capsule('writer')).toBeVisible();
  await expect(app.canvas.capsule('researcher')).toBeVisible();
  await expect(app.canvas.edge('coordinator', 'researcher')).toHaveCount(1);
  await expect(app.canvas.edge('coordinator', 'writer')).toHaveCount(1);
  // One step: nothing is left to undo from the removal.
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeDisabled();
});

test('a formation without positions is laid out when opened, and Auto-layout rearranges it as one undo step', async ({
  page,
  studio,
}) => {
  const dir = await copyExampleWorkspace();
  try {
    const file = join(dir, 'formation.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^\s+position:.*\n/gm, ''));
    expect(readFileSync(file, 'utf8')).not.toContain('position');
    await studio.core.invoke('workspace.open', { dir });
    const app = new StudioPage(page);
    await page.goto('/');
    await expect(app.canvas.capsule('coordinator')).toBeVisible();

    // Laid out and saved: no node on another, the coordinator left of its workers.
    await expect
      .poll(() => parse(readFileSync(file, 'utf8')).capsules.every((c: { position?: unknown }) => c.position))
      .toBe(true);
    await expect.poll(async () => overlapping(await app.tools.boxes())).toEqual([]);
    const laid = parse(readFileSync(file, 'utf8')).capsules as { id: string; position: { x: number; y: number } }[];
    const at = Object.fromEntries(laid.map((c) => [c.id, c.position]));
    expect(at.researcher.x).toBeGreaterThan(at.coordinator.x);
    expect(at.writer.x).toBeGreaterThan(at.coordinator.x);
    // Laying out on open is not an edit the user made: nothing to undo.
    await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeDisabled();

    // On demand: drag one away, Auto-layout brings the tidy layout back; one undo undoes it.
    await app.canvas.dragNode('writer', -300, 60);
    await expect
      .poll(() => parse(readFileSync(file, 'utf8')).capsules.find((c: { id: string }) => c.id === 'writer').position.x)
      .not.toBe(at.writer.x);
    const dragged = parse(readFileSync(file, 'utf8')).capsules;
    expect(dragged.find((c: { id: string }) => c.id === 'writer').position.x).toBeLessThan(at.coordinator.x + 100);
    await app.tools.autoLayout.click();
    const positions = () =>
      Object.fromEntries(
        parse(readFileSync(file, 'utf8')).capsules.map((c: { id: string; position: { x: number; y: number } }) => [
          c.id,
          c.position,
        ]),
      );
    await expect.poll(() => positions().writer.x).toBeGreaterThan(positions().coordinator.x + 200);
    expect(positions().researcher.x).toBe(positions().writer.x);
    await expect.poll(async () => overlapping(await app.tools.boxes())).toEqual([]);
    await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled(); // the edit's answer came back: its step is recorded
    await page.keyboard.press('Control+Z');
    await expect.poll(() => parse(readFileSync(file, 'utf8')).capsules).toEqual(dragged);
  } finally {
    await removeOpenedWorkspace(studio, dir);
  }
});

for (const scheme of ['light', 'dark'] as const) {
  test(`canvas tools in the ${scheme} theme: minimap, context menu, command palette`, async ({ page, studio }) => {
    void studio;
    await page.emulateMedia({ colorScheme: scheme });
    const app = new StudioPage(page);
    await page.goto('/');
    await expect(app.canvas.capsule('coordinator')).toBeVisible();
    await expect(app.tools.minimap).toBeVisible();
    await expect(app.tools.minimapToggle).toHaveAttribute('aria-pressed', 'true');
    await expect(app.canvas.capsule('writer').getByRole('img', { name: /Driver: Rehearsal/ })).toBeVisible();
    await app.screenshot(`canvas-tools-${scheme}`);

    await app.tools.menuOnNode('coordinator');
    await app.screenshot(`canvas-menu-node-${scheme}`);
    await page.keyboard.press('Escape');
    await app.tools.menuOnPane({ x: 420, y: 520 });
    await app.screenshot(`canvas-menu-pane-${scheme}`);
    await page.keyboard.press('Escape');

    await app.palette.open();
    await app.palette.input.fill('r');
    await app.screenshot(`command-palette-${scheme}`);
    await page.keyboard.press('Escape');

    // A command that cannot run now is listed, marked and last; Enter on it does nothing.
    await app.palette.open();
    await app.palette.input.fill('redo');
    await expect(app.palette.option(/Redo/)).toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Escape');

    // A click on a node in the minimap selects and centres it.
    await app.tools.minimap.locator('.react-flow__minimap-node').first().click();
    await expect(page.locator('.react-flow__node.selected')).toHaveCount(1);

    // The choice to hide it is kept across a reload.
    await app.tools.minimapToggle.click();
    await expect(app.tools.minimap).toHaveCount(0);
    await page.reload();
    await expect(app.canvas.capsule('coordinator')).toBeVisible();
    await expect(app.tools.minimapToggle).toHaveAttribute('aria-pressed', 'false');
    await expect(app.tools.minimap).toHaveCount(0);
    await app.tools.minimapToggle.click();
    await expect(app.tools.minimap).toBeVisible();
  });
}
