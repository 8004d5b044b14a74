import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  expect(allowOf(readManifest(studio.workspace, 'capsules/coordinator.yaml')).some((e) => e.endsWith(`:${port}`))).toBe(
    true,
  );
  // The node shows the pinned port too: the graph and the file agree.
  await expect(app.canvas.capsule(worker.name).getByText(`port ${port}`)).toBeVisible();

  await app.canvas.deleteEdge('coordinator', id);

  await expect(app.canvas.edge('coordinator', id)).toHaveCount(0);
  await expect
    .poll(() =>
      allowOf(readManifest(studio.workspace, 'capsules/coordinator.yaml')).some((e) => e.endsWith(`:${port}`)),
    )
    .toBe(false);
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
  await expect
    .poll(
      async () => (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')!.position.y,
    )
    .toBeGreaterThan(start.y + 20);
});

test('a remote agent is added by URL and shows why its card could not be read', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  await app.canvas.dropFromPalette('Remote agent', { x: 200, y: 460 });
  const dialog = page.getByRole('dialog', { name: 'Add a remote agent' });
  await dialog.getByRole('textbox', { name: 'Agent URL' }).fill('not a url');
  await dialog.getByRole('button', { name: 'Add agent' }).click();
  await expect(dialog.getByText(/http:\/\/ or https:\/\//)).toBeVisible();
  // Port 9 (discard) on loopback: nothing answers, so the node carries the error.
  await dialog.getByRole('textbox', { name: 'Agent URL' }).fill('http://127.0.0.1:9/');
  await dialog.getByRole('button', { name: 'Add agent' }).click();
  await expect(dialog).toBeHidden();
  const node = page.getByTestId('remote-node');
  await expect(node).toBeVisible();
  await expect(node.locator('.capsule-node-error')).toBeVisible();
  expect((await studio.core.invoke('formation.get', {})).remotes).toHaveLength(1);
});

test('an allow entry that matches no capsule shows as an external address', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  const file = join(studio.workspace, 'capsules/coordinator.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/allow:\n/, 'allow:\n      - api.example.org:443\n'));
  await expect(page.getByRole('group', { name: 'External address api.example.org:443' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(app.canvas.edges()).toHaveCount(3);
});

test('deleting a node asks first, removes its manifest, and Undo brings it back', async ({ page, studio }) => {
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.select('writer');
  await page.keyboard.press('Delete');
  const dialog = page.getByRole('dialog', { name: 'Remove writer?' });
  await expect(dialog).toContainText('capsules/writer.yaml');
  await dialog.getByRole('button', { name: 'Keep' }).click();
  await expect(app.canvas.capsule('writer')).toBeVisible();

  await app.canvas.select('writer');
  await page.keyboard.press('Delete');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(app.canvas.capsule('writer')).toHaveCount(0);
  await expect(app.canvas.edges()).toHaveCount(1);
  expect(manifestExists(studio.workspace, 'capsules/writer.yaml')).toBe(false);

  await page.keyboard.press('Control+z');
  await expect(app.canvas.capsule('writer')).toBeVisible();
  await expect(app.canvas.edges()).toHaveCount(2);
  await expect.poll(() => manifestExists(studio.workspace, 'capsules/writer.yaml')).toBe(true);
  expect(readFileSync(join(studio.workspace, 'capsules/writer.yaml'), 'utf8')).toContain('# pinned so the coordinator');
});
