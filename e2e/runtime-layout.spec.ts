import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { boxOf, intersects, type Box } from './helpers/boxes';
import { detachAll, startServe, type ServedRuntime } from './helpers/serve';
import { SCREENSHOT_DIR, StudioPage } from './pages/studio';

// An attached runtime's capsules stand in a frame of their own: the Studio's own nodes never land
// inside it or under it, whether added from the palette or arranged by Auto-layout.

let served: ServedRuntime | undefined;
test.afterEach(async ({ studio }) => {
  await detachAll(studio.core);
  served?.close();
  served = undefined;
});

/** The boxes on screen of this Studio's own nodes (ids without the runtime's `@` prefix). */
async function localBoxes(page: Page): Promise<{ id: string; box: Box }[]> {
  return page.locator('.react-flow__node').evaluateAll((ns) =>
    ns
      .filter((n) => !(n.getAttribute('data-id') ?? '').startsWith('@'))
      .map((n) => {
        const r = n.getBoundingClientRect();
        return { id: n.getAttribute('data-id') ?? '', box: { x: r.x, y: r.y, width: r.width, height: r.height } };
      }),
  );
}

test('a palette click and Auto-layout keep the local nodes out of an attached runtime frame', async ({
  page,
  studio,
}) => {
  const remote = (served = await startServe());
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');
  await studio.core.invoke('runtimes.attach', { url: remote.url, token: remote.token, label: 'far host' });
  const frame = page.getByRole('group', { name: 'Runtime far host' });
  await expect(frame).toContainText('connected');
  const fit = page.getByRole('button', { name: 'Fit view', exact: true });
  await fit.click();

  // The view's middle is in the frame once the runtime's capsule is focused: a palette click still
  // adds a capsule of this Studio, beside the frame, not in it.
  await app.palette.open();
  await app.palette.run('far-writer', 'far-writer');
  const ids = async () => (await studio.core.invoke('formation.get', {})).capsules.map((c) => c.id);
  const before = await ids();
  await page.getByRole('navigation', { name: 'Palette' }).getByRole('button', { name: 'Worker', exact: true }).click();
  await expect.poll(async () => (await ids()).length).toBe(before.length + 1);
  const id = (await ids()).find((n) => !before.includes(n))!;
  // A capsule of this Studio, not of the far host.
  expect(id).not.toMatch(/^@/);
  const added = app.canvas.nodeById(id);
  await expect(added).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/runtime-palette.png` });
  expect(intersects(await boxOf(added), await boxOf(frame))).toBe(false);

  // Auto-layout arranges every node: the local ones stay clear of the frame.
  await page.getByRole('button', { name: 'Auto-layout', exact: true }).click();
  await fit.click();
  await expect(frame).toBeVisible();
  await expect
    .poll(async () => {
      const f = await boxOf(frame);
      return (await localBoxes(page)).filter((n) => intersects(n.box, f)).map((n) => n.id);
    })
    .toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/runtime-autolayout.png` });
});

// A palette click adds the node in the middle of the view, unless a node stands there: then just
// beside it, on no node at all (clicked twice: the second lands on neither).
test('a palette click lands the new capsule where no node stands', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.stateOf('writer')).toHaveText('Stopped');
  // The view centred on the writer: the middle of the view is on it.
  await app.palette.open();
  await app.palette.run('writer', 'writer');
  const count = async () => (await studio.core.invoke('formation.get', {})).capsules.length;
  const before = await count();
  const worker = page.getByRole('navigation', { name: 'Palette' }).getByRole('button', { name: 'Worker', exact: true });
  for (const n of [1, 2]) {
    await worker.click();
    await expect.poll(count).toBe(before + n);
  }
  // The view follows the new nodes: both are drawn, and so is the writer they would have covered.
  for (const id of ['writer', 'worker', 'worker-2']) await expect(app.canvas.nodeById(id)).toBeVisible();
  const overlapping = async () => {
    const boxes = await localBoxes(page);
    return boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter((b) => intersects(a.box, b.box))
        .map((b) => `${a.id}/${b.id}`),
    );
  };
  await expect.poll(overlapping).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('palette-spot.png') });
});
