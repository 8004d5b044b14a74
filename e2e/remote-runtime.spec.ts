import { expect, test } from './fixtures';
import { detachAll, startServe, type ServedRuntime } from './helpers/serve';
import { StudioPage } from './pages/studio';
import { CommandPalettePage } from './pages/commandPalette';

// A runtime on "another host" (a `capsule serve --studio` with its own home, records and port,
// loopback only), attached from the UI dialog: its capsule stands in a frame labelled with the
// runtime and its link state, runs a task sent from the console, and leaves when detached.

let served: ServedRuntime | undefined;

test.afterEach(async ({ studio }) => {
  await detachAll(studio.core);
  served?.close();
  served = undefined;
});

test('attach a runtime from the dialog, see its capsules grouped and labelled, run one, detach', async ({
  page,
  studio,
}) => {
  void studio;
  const remote = (served = await startServe());
  const app = new StudioPage(page);
  await page.goto('/');
  await expect(app.stateOf('coordinator')).toHaveText('Stopped');

  // The command palette offers it too.
  const palette = new CommandPalettePage(page);
  await palette.open();
  await palette.run('attach runtime', 'Attach runtime…');
  const dialog = page.getByRole('dialog', { name: 'Attach a runtime' });
  await expect(dialog).toBeVisible();

  // A wrong token is refused (401) and nothing is attached.
  await dialog.getByLabel('Runtime URL').fill(remote.url);
  await dialog.getByLabel('Token').fill('capsule_wrong_token');
  await dialog.getByLabel('Label (optional)').fill('far host');
  await dialog.getByRole('button', { name: 'Attach' }).click();
  await expect(dialog.getByRole('alert')).toContainText('401');
  await expect(dialog.getByLabel('Token')).toHaveValue('');

  await dialog.getByLabel('Token').fill(remote.token);
  await dialog.getByRole('button', { name: 'Attach' }).click();
  await expect(dialog).toBeHidden();

  const group = page.getByRole('group', { name: 'Runtime far host' });
  await expect(group).toBeVisible();
  await expect(group).toContainText('connected');
  await expect(page.getByTestId('runtime-far-host')).toHaveAttribute('data-state', 'connected');
  // The runtime's area stands below the local formation: find its capsule (the view goes to it).
  await palette.open();
  await palette.run('far-writer', 'far-writer');
  await expect(app.stateOf('far-writer')).toHaveText('Idle', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Fit view', exact: true }).click();
  await expect(app.canvas.capsule('coordinator')).toBeVisible();
  await page.screenshot({ path: '/tmp/remote-groups.png' });

  const entry = await app.console.sendTo('@far-host/far-writer', 'Write something far away');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect(entry.getByLabel('Answer')).toContainText('Written on the far host.');

  // An edge drawn from this Studio's coordinator to the far host's worker: the allow entry written
  // here with the worker's door as this machine reaches it, the export on the far host's disk.
  await page.getByRole('button', { name: 'Fit view', exact: true }).click();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  // Zoomed in, the node shows its last output (taller, so its handles move): wait for it before drawing.
  await expect(page.locator('.react-flow__node', { hasText: 'far-writer' })).toContainText('Written on the far host.');
  await app.canvas.connect('coordinator', '@far-host/far-writer');
  await expect
    .poll(
      async () =>
        (await studio.core.invoke('formation.get', {})).edges.find(
          (e) => e.source === 'coordinator' && e.target === '@far-host/far-writer',
        )?.address ?? '',
    )
    .toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect((await studio.core.invoke('manifest.read', { id: '@far-host/far-writer' })).source).toMatch(
    /peer_tasks:\s*\n\s*accept: true/,
  );
  await expect(page.locator('.react-flow__edge')).toHaveCount(3);

  // Expose on the far host's capsule: calls at that host's gateway come live into the panel, and
  // its gateway settings say whose they are and apply there, not to this Studio's gateway.
  await app.canvas.select('far-writer');
  await page.getByText('Expose to outside callers').click();
  await page.getByRole('switch', { name: 'Expose far-writer through the gateway' }).click();
  await expect(page.getByRole('region', { name: 'New token' })).toBeVisible();
  const url = await page.getByRole('textbox', { name: 'Gateway URL' }).inputValue();
  // Its node says so, from the far host's gateway's list.
  await expect(
    app.canvas.capsule('far-writer').getByRole('img', { name: 'far-writer is exposed to outside callers' }),
  ).toHaveAttribute('title', `far-writer is exposed to outside callers at ${url}`);
  const refused = await fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer capsule_wrong_token', 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'nope' } }),
  });
  expect(refused.status).toBe(401);
  await expect(
    page
      .getByRole('table', { name: 'External calls to far-writer' })
      .getByRole('row')
      .filter({ hasText: 'unauthorized' }),
  ).toBeVisible();
  const settings = page.locator('.expose-settings > summary');
  await expect(settings).toContainText('Gateway of far host');
  await settings.click();
  await page.getByRole('textbox', { name: /^Public origin/ }).fill('https://agents-far.example.com');
  await page.getByRole('button', { name: 'Apply gateway settings on far host (restarts its gateway)' }).click();
  await expect(settings).toContainText('https://agents-far.example.com');
  expect((await studio.core.invoke('gateway.status', {})).publicOrigin).toBeUndefined();
  await page.screenshot({ path: '/tmp/remote-expose.png' });

  // The far host goes away: its frame and chip say the link is lost and when it is tried again.
  remote.process.kill('SIGKILL');
  await expect(page.getByTestId('runtime-far-host')).toHaveAttribute('data-state', 'lost');
  await expect(group).toContainText(/lost, retrying in \d+ s/);
  await expect(group).toHaveAttribute('data-state', 'lost');
  await expect(group).toContainText('lost');
  await page.screenshot({ path: '/tmp/remote-lost.png' });

  await page.getByRole('button', { name: 'Detach far host' }).click();
  await expect(group).toBeHidden();
  await expect(app.canvas.capsule('far-writer')).toBeHidden();
});
