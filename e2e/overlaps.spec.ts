import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { boxOf, intersects } from './helpers/boxes';
import { detachAll, startServe, type ServedRuntime } from './helpers/serve';
import { SCREENSHOT_DIR, StudioPage } from './pages/studio';

// Nothing the user needs is covered or clipped: the minimap clears the nodes' Stop buttons, the
// Form/YAML switch does not hide the fields under the restart banner, a turn's Fork link fits its
// table, and the workspace name stays readable beside a runtime chip, with every toolbar control in
// the window. Checked as boxes on screen.

let served: ServedRuntime | undefined;
test.afterEach(async ({ studio }) => {
  await detachAll(studio.core);
  served?.close();
  served = undefined;
});

/** Whether the element's text is shown whole (not cut by its own box or by a scrolling ancestor). */
async function shownWhole(l: Locator): Promise<boolean> {
  return l.evaluate((el) => {
    if (el.scrollWidth > el.clientWidth + 1) return false;
    const r = el.getBoundingClientRect();
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const q = p.getBoundingClientRect();
      if (r.left < q.left - 0.5 || r.right > q.right + 0.5 || r.top < q.top - 0.5 || r.bottom > q.bottom + 0.5)
        return false;
    }
    return true;
  });
}

/** The topmost element at the middle of a box is this one (or inside it): nothing lies over it. */
async function onTop(page: Page, l: Locator): Promise<boolean> {
  const b = await boxOf(l);
  return l.evaluate(
    (el: Element, p: { x: number; y: number }) => {
      const top = document.elementFromPoint(p.x, p.y);
      return !!top && (el === top || el.contains(top));
    },
    { x: b.x + b.width / 2, y: b.y + b.height / 2 },
  );
}

test('the minimap clears the Stop buttons', async ({ page }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  // After a task each node shows its last output and grows: the writer's Stop reaches the minimap's corner.
  const done = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(done.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  const minimap = page.locator('.react-flow__minimap');
  await expect(minimap).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/overlap-minimap.png` });
  for (const name of ['coordinator', 'researcher', 'writer']) {
    const stop = app.canvas.capsule(name).getByRole('button', { name: `Stop ${name}`, exact: true });
    await expect
      .poll(async () => intersects(await boxOf(stop), await boxOf(minimap)), {
        message: `${name}'s Stop under the minimap`,
      })
      .toBe(false);
  }
});

test('the manifest form keeps its fields visible under the restart banner, and the Fork link of a turn fits a narrow panel', async ({
  page,
}) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  const done = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(done.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });

  await app.canvas.select('coordinator');
  // The narrowest side panel.
  await page.getByRole('separator', { name: 'Resize the details panel' }).focus();
  await page.keyboard.press('End');
  await app.manifest.field('Description').fill('Plans, then delegates.');
  await app.manifest.save.click();
  await expect(app.manifest.status).toHaveText('Saved');
  const side = page.getByRole('complementary', { name: 'Details of coordinator' });
  await expect(side.getByTestId('restart-to-apply')).toContainText('Restart to apply');
  const switcher = side.getByRole('tablist', { name: 'Manifest view' });
  // Scrolled a little, every field label shown is clear of the switch and the banner.
  await side.locator('.manifest-body').evaluate((el) => el.scrollBy(0, 90));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/overlap-form-scrolled.png` });
  for (const label of ['Name', 'Description', 'Role', 'Driver']) {
    const l = side.locator('label', { hasText: new RegExp(`^${label}$`) }).first();
    if (!(await l.isVisible())) continue;
    const box = await boxOf(l);
    const sw = await boxOf(switcher);
    if (box.y + box.height < sw.y + sw.height) continue; // scrolled out of its list, not under anything
    expect(await onTop(page, l), `${label} is covered`).toBe(true);
  }
  expect(await onTop(page, switcher)).toBe(true);

  await page.getByRole('tab', { name: 'Tasks' }).click();
  await page
    .getByRole('button', { name: /^Show details of task / })
    .first()
    .click();
  const fork = page.getByRole('button', { name: 'Fork from turn 1' });
  await fork.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/overlap-fork.png` });
  expect(await shownWhole(fork)).toBe(true);
  const card = await boxOf(page.getByRole('group', { name: /^Details of task / }).first());
  const f = await boxOf(fork);
  expect(f.x + f.width).toBeLessThanOrEqual(card.x + card.width);
});

test('the workspace name stays readable beside a runtime chip', async ({ page, studio }) => {
  const remote = (served = await startServe());
  await page.goto('/');
  await studio.core.invoke('runtimes.attach', { url: remote.url, token: remote.token, label: 'far host' });
  await expect(page.getByTestId('runtime-far-host')).toHaveAttribute('data-state', 'connected');
  const name = page.getByTestId('workspace-name');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/overlap-toolbar.png` });
  expect((await boxOf(name)).width).toBeGreaterThan(60);
  expect(await shownWhole(name)).toBe(true);
  // ...and the toolbar's last control still fits the window (1280 px wide here).
  const launch = await boxOf(page.getByRole('button', { name: 'Launch all' }));
  expect(launch.x + launch.width).toBeLessThanOrEqual(page.viewportSize()!.width);
});

// A workspace with a short name: the line under it says which folder it is in, whole (not the
// path cut to the name's width, "/t…"); the full path is the toolbar's tooltip.
test('the toolbar says which folder a short-named workspace is in, the full path on hover', async ({
  page,
  studio,
}) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'e2e-short-')), 'ab');
  cpSync(studio.workspace, dir, { recursive: true });
  try {
    await studio.core.invoke('workspace.open', { dir });
    await page.goto('/');
    await expect(page.getByTestId('workspace-name')).toHaveText('ab');
    const where = page.getByTestId('workspace-where');
    await expect(where).toHaveText(`in ${dirname(dir)}`);
    expect(await shownWhole(where)).toBe(true);
    await expect(page.getByRole('group', { name: 'Workspace' })).toHaveAttribute('title', dir);
    await page.screenshot({ path: test.info().outputPath('toolbar-short-name.png') });
  } finally {
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    rmSync(dirname(dir), { recursive: true, force: true });
  }
});
