import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { InspectorPage } from './pages/inspector';
import { StudioPage } from './pages/studio';

// Inspect a task fully: the orchestrator's task shows its messages, artifacts (text, data, a
// file), turns with timing, tokens and cost; its delegation links open the child task in the
// worker's capsule; a live trace row opens to its JSON and copies it; the side panel resizes
// (mouse and keys, kept across a reload) and takes the full width. Screenshots in both themes.

test.use({ viewport: { width: 1440, height: 900 } });

const NOTES = 'fact one\nfact two\nfact three\n';

// The example coordinator, priced (a model the price table knows; the rehearsal driver still
// answers) and with fixed token counts, and a final turn that sends a data and a file artifact.
// Its allow list stays as the fixture pinned it.
const REPLIES = `    replies:
      - turns:
          - tokens_in: 1200
            tokens_out: 80
            tool_calls:
              - name: delegate_task
                arguments:
                  to: researcher
                  text: "Find three facts for this request."
              - name: delegate_task
                arguments:
                  to: writer
                  text: "Draft a short paragraph for this request."
          - tokens_in: 1500
            tokens_out: 40
            text: "Summary: the researcher gathered the facts and the writer drafted the paragraph."
            artifacts:
              - name: facts
                parts:
                  - data: { pools: 3, creatures: [anemone, crab] }
              - name: notes
                parts:
                  - bytes: "${Buffer.from(NOTES).toString('base64')}"
                    filename: notes.txt
                    media_type: text/plain`;

function pricedCoordinator(workspace: string): void {
  const file = join(workspace, 'capsules/coordinator.yaml');
  const yaml = readFileSync(file, 'utf8')
    .replace(/^( *)model: rehearsal$/m, '$1model: gpt-4o-mini')
    .replace(/ {4}replies:[\s\S]*?(?=\n\nlifecycle:)/, REPLIES);
  expect(yaml).toContain('notes.txt');
  expect(yaml).toContain('gpt-4o-mini');
  writeFileSync(file, yaml);
}

/** A screenshot with the pointer off the panel (a hovered resize edge would show as a bar). */
async function shot(app: StudioPage, name: string): Promise<void> {
  await app.page.mouse.move(600, 300);
  await app.screenshot(name);
}

async function runFormation(page: Page, app: StudioPage): Promise<string> {
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);
  const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  return app.console.taskIdOf(entry);
}

test('inspect the orchestrator task fully, follow a delegation to the worker, read the trace and size the panel', async ({
  page,
  studio,
  context,
}) => {
  pricedCoordinator(studio.workspace);
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const app = new StudioPage(page);
  const ins = new InspectorPage(page);
  const taskId = await runFormation(page, app);

  await app.canvas.select('coordinator');
  await ins.openTab('Tasks');
  const detail = await ins.openTask(taskId);
  await expect(detail).toBeVisible();

  // Messages: the user's and the agent's.
  const messages = ins.section(taskId, 'Messages');
  await expect(messages.getByRole('listitem', { name: 'User message' })).toContainText('Write a note about tide pools');
  const said = messages.getByRole('listitem', { name: 'Agent message' });
  await expect(said).toHaveCount(2);
  await expect(said.first()).toContainText('called delegate_task, delegate_task');
  await expect(said.last()).toContainText('Summary: the researcher gathered the facts');
  // Artifacts: the answer as text, data as formatted JSON, a file with its name, type and size, and a download.
  const artifacts = ins.section(taskId, 'Artifacts');
  await expect(artifacts.getByRole('listitem', { name: 'Artifact response' })).toContainText(
    'Summary: the researcher gathered the facts',
  );
  await expect(artifacts.getByLabel('Artifact facts data', { exact: true })).toHaveText(
    /\{\n {2}"pools": 3,\n {2}"creatures": \[\n {4}"anemone",/,
  );
  const file = artifacts.getByLabel('File notes.txt');
  await expect(file).toContainText('text/plain');
  await expect(file).toContainText(`${Buffer.byteLength(NOTES)} B`);
  const download = page.waitForEvent('download');
  await file.getByRole('button', { name: 'Download notes.txt' }).click();
  expect((await download).suggestedFilename()).toBe('notes.txt');
  // Status message and history.
  await expect(ins.section(taskId, 'Status')).toContainText('completed');
  await expect(ins.section(taskId, 'History')).toContainText('ended COMPLETED after 2 turns');

  // Turns: timing, tokens and the cost at the model's list price (gpt-4o-mini: $0.15 / $0.60 per million).
  const turns = ins.section(taskId, 'Turns').getByRole('table', { name: 'Turns' });
  await expect(turns.getByRole('row', { name: 'Turn 1' })).toContainText('1,200 / 80');
  await expect(turns.getByRole('row', { name: 'Turn 1' })).toContainText(/2 · \d/);
  await expect(turns.getByRole('row', { name: 'Turn 2' })).toContainText('1,500 / 40');
  await expect(turns.getByRole('row', { name: 'Task total' })).toContainText('2,700 / 120');
  await expect(turns.getByRole('row', { name: 'Task total' })).toContainText('$0.0005');
  await expect(ins.section(taskId, 'Turns').getByLabel('Cost')).toContainText("$0.0005 at gpt-4o-mini's list price");
  await expect(ins.section(taskId, 'Residue')).toContainText('Nothing was left running');
  await shot(app, 'inspector-full-task-light');

  // Each delegation links to its child task; the researcher's opens in the researcher's capsule.
  await expect(ins.section(taskId, 'Delegations').getByRole('listitem')).toHaveCount(2);
  const link = ins.delegationLink(taskId, 'researcher');
  const childId = (await link.textContent())!;
  expect(childId).toMatch(/^tsk_/);
  await link.click();
  await expect(ins.panel('researcher')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Tasks' })).toHaveAttribute('aria-selected', 'true');
  await expect(ins.detail(childId)).toBeVisible();
  await expect(ins.section(childId, 'Messages').getByRole('listitem', { name: 'User message' })).toContainText(
    'Find three facts for this request.',
  );
  await expect(ins.section(childId, 'Artifacts')).toContainText('Research notes');
  await expect(ins.section(childId, 'Messages').getByRole('listitem', { name: 'Agent message' })).toContainText(
    'Research notes',
  );
  await expect(
    ins.section(childId, 'Turns').getByRole('table', { name: 'Turns' }).getByRole('row', { name: 'Turn 1' }),
  ).toBeVisible();
  // The worker's model has no price: no cost is made up.
  await expect(ins.section(childId, 'Turns').getByLabel('Cost')).toContainText('does not know the model rehearsal');

  // The live trace: a row opens in place to its JSON, which copies whole.
  await app.canvas.select('coordinator');
  await ins.openTab('Live trace');
  // Once the history is read in (the list settles on the task's end), a row stays where it is.
  await expect(ins.traceRow(/task_end/)).toBeVisible();
  const coordinatorSession = (await studio.core.invoke('formation.get', {})).capsules.find(
    (c) => c.name === 'coordinator',
  )!.sessionId!;
  const lines = (await studio.core.invoke('trace.tail', { sessionId: coordinatorSession, last: 1000 })).events.length;
  await expect(page.getByTestId('trace-count')).toHaveText(new RegExp(`^${lines} events`));
  const call = ins.traceRow(/tool_call.*delegate_task/).first();
  await call.click();
  const open = ins.liveTrace.getByRole('row', { name: 'tool_call event' });
  await expect(open).toHaveAttribute('aria-expanded', 'true');
  const json = open.getByLabel('event JSON', { exact: true });
  await expect(json).toContainText('"name": "delegate_task"');
  await open.getByRole('button', { name: 'Copy event JSON' }).click();
  await expect(open.getByRole('button', { name: 'Copy event JSON' })).toHaveText('Copied');
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as Record<string, unknown>;
  expect(copied).toMatchObject({ event_type: 'tool_call', name: 'delegate_task', task_id: taskId });
  // The rows after the open one sit below it, not under it (the list measured the open row).
  const openBox = (await open.boundingBox())!;
  const next = ins.liveTrace.locator('.trace-event[role="row"]');
  const below = await next.evaluateAll(
    (rows, top) =>
      rows
        .map((r) => r.getBoundingClientRect())
        .filter((b) => b.top > top)
        .map((b) => b.top),
    openBox.y,
  );
  expect(below.length).toBeGreaterThan(0);
  expect(Math.min(...below)).toBeGreaterThanOrEqual(openBox.y + openBox.height - 1);
  // Only the list scrolls: the tab panel around it has no scroll range of its own.
  const panelScroll = await page.getByRole('tabpanel').evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(panelScroll).toBeLessThanOrEqual(0);
  await shot(app, 'inspector-full-trace-open-light');
  await open.getByText('tool_call', { exact: true }).click();
  await expect(ins.liveTrace.getByRole('row', { name: 'tool_call event' })).toHaveCount(0);

  // The side panel resizes by dragging its edge and by keys; the width is kept across a reload.
  const before = await ins.panelWidth('coordinator');
  await ins.dragEdge(-200);
  await expect.poll(() => ins.panelWidth('coordinator')).toBeCloseTo(before + 200, -1);
  await ins.resizeHandle.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => ins.panelWidth('coordinator')).toBeCloseTo(before + 216, -1);
  await expect(ins.resizeHandle).toHaveAttribute('aria-valuenow', String(Math.round(before + 216)));
  await page.reload();
  await app.canvas.select('coordinator');
  await expect.poll(() => ins.panelWidth('coordinator')).toBeCloseTo(before + 216, -1);
  // Wider than the window allows is held at the bound: the canvas keeps room.
  await ins.dragEdge(-2000);
  const widest = await ins.panelWidth('coordinator');
  expect(widest).toBeLessThanOrEqual(1440 - 168 - 320 + 1);
  await ins.resizeHandle.focus();
  await page.keyboard.press('End');
  await expect.poll(() => ins.panelWidth('coordinator')).toBeCloseTo(320, -1);

  // Full width: the panel covers the whole body of the window; Restore (or Esc) gives the canvas back.
  await ins.fullWidth.click();
  const body = (await page.locator('.studio-body').boundingBox())!;
  await expect.poll(async () => (await ins.panel('coordinator').boundingBox())!.width).toBeCloseTo(body.width, 0);
  await ins.openTab('Tasks');
  await ins.openTask(taskId);
  await shot(app, 'inspector-full-width-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(app, 'inspector-full-width-dark');
  await page.keyboard.press('Escape');
  await expect(ins.fullWidth).toBeVisible();
  await expect.poll(() => ins.panelWidth('coordinator')).toBeCloseTo(320, -1);
  await ins.dragEdge(-300);
  await shot(app, 'inspector-full-task-dark');
  await ins.openTab('Live trace');
  await ins
    .traceRow(/inference/)
    .first()
    .click();
  await shot(app, 'inspector-full-trace-open-dark');
});
