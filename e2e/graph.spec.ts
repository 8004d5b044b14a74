import { expect, test } from './fixtures';
import { allowOf, manifestExists, readManifest } from './helpers/workspace';
import { StudioPage } from './pages/studio';

// Drawing the formation writes the manifests: a dropped Worker is a new manifest file, an edge
// orchestrator -> worker is an allow entry plus the worker's peer export (and a pinned port).

test('a Worker dragged from the palette becomes a node and a manifest file', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  const before = await app.canvas.nodeIds();

  await app.canvas.dropFromPalette('Worker', { x: 180, y: 420 });

  await expect(page.locator('.react-flow__node')).toHaveCount(before.length + 1);
  const added = (await app.canvas.nodeIds()).find((id) => !before.includes(id))!;
  const view = (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === added)!;
  await expect(app.canvas.capsule(view.name)).toBeVisible();
  await expect(app.canvas.capsule(view.name).getByText('Rehearsal', { exact: true })).toBeVisible();
  expect(manifestExists(studio.workspace, view.manifestPath)).toBe(true);
  expect(readManifest(studio.workspace, view.manifestPath)).toMatchObject({ name: view.name, role: 'worker' });
  // The drop position persists (near where the pointer let go, not at the origin).
  expect(view.position.x).not.toBe(0);
});

test('connecting and disconnecting orchestrator -> worker edits both manifests', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  const before = await app.canvas.nodeIds();
  await app.canvas.dropFromPalette('Worker', { x: 180, y: 440 });
  await expect(page.locator('.react-flow__node')).toHaveCount(before.length + 1);
  const id = (await app.canvas.nodeIds()).find((n) => !before.includes(n))!;
  const worker = (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === id)!;
  expect(readManifest(studio.workspace, worker.manifestPath).network?.internal_port).toBeUndefined();

  await app.canvas.connect('coordinator', id);

  await expect(app.canvas.edge('coordinator', id)).toBeVisible();
  await expect(app.notice(/[Pp]inned/)).toBeVisible();
  const pinned = readManifest(studio.workspace, worker.manifestPath);
  const port = pinned.network?.internal_port;
  expect(port).toBeGreaterThan(0);
  expect(pinned.exports?.peer_tasks?.accept).toBe(true);
  expect(allowOf(readManifest(studio.workspace, 'capsules/coordinator.yaml')).some((e) => e.endsWith(`:${port}`))).toBe(true);
  // The node shows the pinned port too: the graph and the file agree.
  await expect(app.canvas.capsule(worker.name).getByText(`port ${port}`)).toBeVisible();

  await app.canvas.deleteEdge('coordinator', id);

  await expect(app.canvas.edge('coordinator', id)).toHaveCount(0);
  await expect.poll(() => allowOf(readManifest(studio.workspace, 'capsules/coordinator.yaml')).some((e) => e.endsWith(`:${port}`))).toBe(false);
  expect(readManifest(studio.workspace, worker.manifestPath).exports?.peer_tasks?.accept ?? false).toBe(false);
  // The other two edges of the example are untouched.
  await expect(app.canvas.edges()).toHaveCount(2);
});

test('undo and redo replay graph edits through the core', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  await app.canvas.deleteEdge('coordinator', 'writer');
  await expect(app.canvas.edges()).toHaveCount(1);

  await page.keyboard.press('Control+z');
  await expect(app.canvas.edges()).toHaveCount(2);
  await expect.poll(async () => (await studio.core.invoke('formation.get', {})).edges.length).toBe(2);

  await page.keyboard.press('Control+Shift+z');
  await expect(app.canvas.edges()).toHaveCount(1);
  await expect(app.canvas.edge('coordinator', 'writer')).toHaveCount(0);
});

test('moving a node persists its position in formation.yaml', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('writer')).toBeVisible();
  const start = (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')!.position;
  await app.canvas.dragNode('writer', -120, 60);
  await expect.poll(async () => (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')!.position.y).toBeGreaterThan(start.y + 20);
});
