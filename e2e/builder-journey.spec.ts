import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { InspectorPage } from './pages/inspector';
import { StudioPage } from './pages/studio';

// A new user's first formation, in one run and with the form alone (no YAML typed): from an empty
// workspace, an orchestrator and a worker from the palette, configured field by field and wired by
// an edge; launched and asked a task; the edge animates with its count in flight while the worker
// thinks, and each node shows its last output; the orchestrator's task opens its child in the
// worker's capsule in the inspector; Ctrl+K finds a capsule. Every wait is on a state, never a sleep.

test.use({ viewport: { width: 1440, height: 900 } });

test('a new user builds a formation with the form, runs it, watches it flow, follows a delegation and finds a capsule with Ctrl+K', async ({
  page,
  studio,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const app = new StudioPage(page);
  const m = app.manifest;
  const canvas = app.canvas;
  const ins = new InspectorPage(page);
  const dir = join(mkdtempSync(join(tmpdir(), 'studio-journey-')), 'first');
  await studio.core.invoke('workspace.create', { dir });
  await page.goto('/');
  await expect(page.getByText('An empty formation')).toBeVisible();

  // Two capsules from the palette.
  await canvas.dropFromPalette('Orchestrator', { x: 160, y: 300 });
  await expect(canvas.capsule('orchestrator')).toBeVisible();
  await canvas.dropFromPalette('Worker', { x: 640, y: 160 });
  await expect(canvas.capsule('worker')).toBeVisible();

  // The worker: what it does, the rehearsal driver, a pause before each turn (so its delegation
  // is seen in flight) and one scripted reply.
  await canvas.select('worker');
  await m.field('Description').fill('Counts invoices.');
  await m.chooseDriver('Rehearsal (offline, scripted)');
  await expect(m.field('Model')).toHaveValue('rehearsal');
  await m.field('Max turns').fill('4');
  await m.field('Delay before every turn (ms)').fill('8000');
  await m.addReply();
  await m.field('Reply 1 when').fill('invoice');
  await m.turnText(1, 1).fill('There are 3 invoices.');
  await m.saveNow();

  // The orchestrator: a system prompt, a turn limit, and a first reply that delegates to the
  // worker (chosen from the formation's capsules), then sums up what came back.
  await canvas.select('orchestrator');
  await m.chooseDriver('Rehearsal (offline, scripted)');
  await m.field('System prompt').fill('You split invoice work between workers.');
  await m.field('Max turns').fill('6');
  const replies = await m
    .section('Rehearsal script')
    .getByRole('group', { name: /^Reply \d+$/ })
    .count();
  await m.addReply();
  const added = replies + 1;
  for (let n = added; n > 1; n--) await m.moveReplyUp(n);
  await expect(m.reply(1).getByRole('note')).toHaveCount(0);
  await m.field('Reply 1 when').fill('invoice');
  await m.turnText(1, 1).fill('');
  await m.addDelegation(1, 1, 'worker', 'How many invoices? {{task}}');
  await m.addTurn(1);
  await m.turnText(1, 2).fill('Counted: {{tool_results}}');
  await m.saveNow();

  // The edge: drawn on the canvas, it owns the orchestrator's allow entry for the worker.
  await canvas.connect('orchestrator', 'worker');
  await expect(canvas.edge('orchestrator', 'worker')).toBeVisible();
  await expect(m.allowOwner(1)).toHaveText('edge to worker');
  await expect(m.status).toHaveText('Saved');
  // Auto-layout sets the orchestrator left of its worker, apart.
  await app.tools.autoLayout.click();
  await expect
    .poll(async () => {
      const b = await app.tools.boxes();
      return b.worker.x >= b.orchestrator.x + b.orchestrator.width;
    })
    .toBe(true);
  await app.tools.fitView.click();
  // The YAML was never opened: the files are the form's work (and keep the template's comments).
  const orch = readFileSync(join(dir, 'capsules', 'orchestrator.yaml'), 'utf8');
  expect(orch).toContain('You split invoice work between workers.');
  expect(orch).toContain('# The rehearsal driver answers from the script below');
  await app.screenshot('journey-1-built');

  // Run it.
  await app.launchAll.click();
  for (const name of ['orchestrator', 'worker'])
    await expect(app.stateOf(name)).toHaveText('Idle', { timeout: 30_000 });
  await expect(canvas.edgeFlow('orchestrator', 'worker')).toHaveCount(0);
  const entry = await app.console.sendTo('orchestrator', 'the invoice count, please');

  // While the worker thinks: the edge animates (one CSS animation) and counts what is in flight;
  // both nodes show their current task.
  await expect(canvas.inFlight('orchestrator', 'worker')).toHaveAccessibleName('1 in flight', { timeout: 20_000 });
  // Checked together, while the worker's turn lasts (a loaded machine can spend seconds between
  // one assertion and the next).
  const flow = canvas.edgeFlow('orchestrator', 'worker');
  await Promise.all([
    expect(flow).toHaveCount(1),
    expect(flow).toHaveCSS('animation-name', 'edge-flow'),
    expect(canvas.currentTask('worker')).toContainText('working'),
    expect(canvas.currentTask('orchestrator')).toContainText('waiting on delegate_task'),
  ]);
  await app.screenshot('journey-2-in-flight');

  // After the run: the edge is still, and each node shows its last output.
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 40_000 });
  await expect(entry.getByLabel('Answer')).toHaveText('Counted: - worker: There are 3 invoices.');
  await expect(canvas.inFlight('orchestrator', 'worker')).toHaveCount(0);
  await expect(canvas.edgeFlow('orchestrator', 'worker')).toHaveCount(0);
  await expect(canvas.lastOutput('worker')).toHaveText('There are 3 invoices.');
  await expect(canvas.lastOutput('orchestrator')).toHaveText('Counted: - worker: There are 3 invoices.');
  expect(await canvas.copyLastOutput('worker')).toBe('There are 3 invoices.');
  const taskId = (await app.console.taskIdOf(entry)).trim();
  expect(taskId).toMatch(/^tsk_/);
  await app.screenshot('journey-3-last-output');

  // The orchestrator's task in the inspector; its delegation opens the child task in the worker.
  await canvas.select('orchestrator');
  await ins.openTab('Tasks');
  await expect(await ins.openTask(taskId)).toBeVisible();
  await expect(ins.section(taskId, 'Delegations').getByRole('listitem')).toHaveCount(1);
  const link = ins.delegationLink(taskId, 'worker');
  const childId = ((await link.textContent()) ?? '').trim();
  expect(childId).toMatch(/^tsk_/);
  await link.click();
  await expect(ins.panel('worker')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Tasks' })).toHaveAttribute('aria-selected', 'true');
  await expect(ins.detail(childId)).toBeVisible();
  await expect(ins.section(childId, 'Messages').getByRole('listitem', { name: 'User message' })).toContainText(
    'How many invoices?',
  );
  await expect(ins.section(childId, 'Artifacts')).toContainText('There are 3 invoices.');
  await app.screenshot('journey-4-child-task');

  // Ctrl+K finds the orchestrator by part of its name, selects it and opens its details.
  await app.palette.open();
  await app.palette.run('orch', 'orchestrator');
  await expect(ins.panel('orchestrator')).toBeVisible();
  await expect(app.tools.node('orchestrator')).toHaveClass(/selected/);
  await app.screenshot('journey-5-palette');
});
