import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { HistoryPage } from './pages/history';
import { StudioPage } from './pages/studio';

// Versions you can trust, offline on the rehearsal driver: an outside A2A caller gets the writer's
// published answer while the draft is edited and relaunched; a publish with a failing test (the
// edge coordinator → writer deleted) is refused with expected beside actual; drawing the edge
// again fixes it and the caller gets the new answer; rolling back brings the old one while a task
// started on the newer version is still answered there; the history and the diff show each step,
// the permission the edge grants named; Restore puts an older version back as a new step.

const FLOW_TEST = readFileSync(join(__dirname, '../src-main/versions/fixtures/writer-flow.yaml'), 'utf8');
const OLD = 'Draft: a short, clear paragraph that answers the request.';
const NEW = 'Draft v2: tides rise twice a day.';

async function call(url: string, token: string, method: string, params: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}

const tides = (returnImmediately = false) => ({
  message: {
    messageId: `e2e-${Date.now()}-${Math.random()}`,
    role: 'ROLE_USER',
    parts: [{ text: 'Write about tides' }],
  },
  configuration: { returnImmediately },
});

async function ask(url: string, token: string): Promise<string> {
  const body = await call(url, token, 'SendMessage', tides());
  expect(body.result?.task?.status?.state, JSON.stringify(body)).toBe('TASK_STATE_COMPLETED');
  return JSON.stringify(body.result.task);
}

test('edit an exposed capsule, publish behind its tests, roll back; history and diff show each step', async ({
  page,
  studio,
}) => {
  test.setTimeout(180_000);
  mkdirSync(join(studio.workspace, 'tests'), { recursive: true });
  writeFileSync(join(studio.workspace, 'tests', 'writer-flow.yaml'), FLOW_TEST);
  const app = new StudioPage(page);
  const history = new HistoryPage(page);
  await page.goto('/');

  // Expose the writer.
  await app.canvas.select('writer');
  await page.getByText('Expose to outside callers').click();
  await page.getByRole('switch', { name: 'Expose writer through the gateway' }).click();
  const token = await page
    .getByRole('region', { name: 'New token' })
    .getByRole('textbox', { name: 'Token' })
    .inputValue();
  const url = await page.getByRole('textbox', { name: 'Gateway URL' }).inputValue();
  await page.getByRole('button', { name: 'Hide the token' }).click();

  // Publish the first version: its test passes.
  await history.open();
  await expect(history.published).toContainText('Nothing published yet');
  await history.publish.click();
  await expect(history.outcome).toContainText('1 test passed', { timeout: 60_000 });
  await expect(history.published.locator('.mono')).toHaveText(/^[0-9a-f]{7}$/);
  const v1 = (await history.published.locator('.mono').textContent())!;
  await history.close();
  expect(await ask(url, token)).toContain(OLD);

  // Edit the draft and relaunch it: the outside caller still gets the published answer.
  await app.manifest.openTab();
  await app.manifest.showYaml();
  await app.manifest.setYaml((await app.manifest.yamlText()).replace(OLD, NEW));
  await app.manifest.saveNow();
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  await expect(page.getByRole('status', { name: 'Version callers get' })).toContainText(
    `Callers get version ${v1}. The draft changes: writer changed`,
  );
  expect(await ask(url, token)).toContain(OLD);

  // Delete the edge coordinator → writer: the test fails, the publish is refused.
  await app.canvas.deleteEdge('coordinator', 'writer');
  await history.open();
  await history.publish.click();
  await expect(history.refused).toContainText('Not published: 1 failing test', { timeout: 60_000 });
  await expect(history.refused.getByRole('table', { name: 'Task 1 expected and actual' })).toBeVisible();
  await app.screenshot('publish-refused');
  await expect(history.published).toContainText(`Callers get ${v1}`);
  await history.refused.getByRole('button', { name: 'Cancel' }).click();
  await history.close();
  expect(await ask(url, token)).toContain(OLD);

  // Draw the edge again: the publish goes through and the caller gets the new answer.
  await app.canvas.connect('coordinator', 'writer');
  await expect(app.canvas.edge('coordinator', 'writer')).toBeVisible();
  await history.open();
  await history.publish.click();
  await expect(history.outcome).toContainText('1 test passed', { timeout: 60_000 });
  await history.outcome.getByRole('button', { name: 'OK' }).click();
  // The panel shows the new published version once the core has told it.
  await expect(history.published.locator('.mono')).not.toHaveText(v1);
  const v2 = (await history.published.locator('.mono').textContent())!;
  expect(await ask(url, token)).toContain(NEW);

  // The history shows each step; the edge's step names the permission it grants.
  for (const message of [
    'Edit writer',
    'Disconnect coordinator → writer',
    'Connect coordinator → writer',
    `Publish ${v1}`,
    `Publish ${v2}`,
  ])
    await expect(history.step(message)).toBeVisible();
  const connect = history.step('Connect coordinator → writer');
  await connect.getByRole('button', { name: /^Changes in / }).click();
  await expect(history.diff.getByRole('list', { name: 'Permissions changed' })).toContainText(
    /coordinator may now call writer at localhost:\d+/,
  );
  await expect(history.diff.getByRole('list', { name: 'Permissions changed' })).toContainText(
    'writer now accepts peer tasks',
  );
  await expect(history.diff.getByRole('table', { name: 'writer manifest side by side' })).toBeVisible();
  await app.screenshot('history-diff');

  // Roll back: publish the first version again; the caller gets the old answer, and a task it
  // started on the newer version just before is still answered, by that version.
  const started = await call(url, token, 'SendMessage', tides(true));
  expect(started.result?.task?.id, JSON.stringify(started)).toMatch(/^tsk_/);
  await history.steps
    .getByRole('listitem', { name: new RegExp(`^Step ${v1}:`) })
    .getByRole('button', { name: `Publish ${v1}` })
    .click();
  await expect(history.outcome).toContainText(`Published ${v1}`, { timeout: 60_000 });
  await expect(history.published).toContainText(`Callers get ${v1}`);
  expect(await ask(url, token)).toContain(OLD);
  await expect
    .poll(async () => (await call(url, token, 'GetTask', { id: started.result.task.id })).result?.status?.state, {
      timeout: 20_000,
    })
    .toBe('TASK_STATE_COMPLETED');
  expect(
    JSON.stringify((await call(url, token, 'GetTask', { id: started.result.task.id })).result.artifacts),
  ).toContain(NEW);

  // Restore the first version: the draft on disk is v1's again, as a new step on top of the others.
  await history.outcome.getByRole('button', { name: 'OK' }).click();
  await history.steps
    .getByRole('listitem', { name: new RegExp(`^Step ${v1}:`) })
    .getByRole('button', { name: `Restore ${v1}` })
    .click();
  await expect(history.steps.getByRole('listitem').first()).toHaveAccessibleName(
    new RegExp(`^Step [0-9a-f]{7}: Restore version ${v1}`),
  );
  expect(readFileSync(join(studio.workspace, 'capsules', 'writer.yaml'), 'utf8')).toContain(OLD);
  await expect(history.step(`Publish ${v2}`)).toBeVisible();
});
