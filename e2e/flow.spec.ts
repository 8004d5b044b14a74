import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// Work visibly flows through the example formation: while the coordinator's delegations are on
// their way its edges animate with the count in flight and its node shows its current task; after
// the run each node shows its last output (expand, copy); an edge lists the tasks that crossed it,
// each opening in the inspector; a canceled run marks the edges until the next run.

/** The example's workers, slowed so a delegation stays in flight long enough to be seen. */
function slowWorkers(workspace: string, ms: number): void {
  for (const name of ['researcher', 'writer']) {
    const file = join(workspace, 'capsules', `${name}.yaml`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', `delay_ms: ${ms}`));
  }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`edges animate while delegations fly, nodes show their output, an edge lists its tasks (${scheme})`, async ({
    page,
    studio,
    context,
  }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.emulateMedia({ colorScheme: scheme });
    slowWorkers(studio.workspace, 10_000);
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const app = new StudioPage(page);
    const canvas = app.canvas;
    await page.goto('/');
    await app.launchAndWait(['coordinator', 'researcher', 'writer']);
    await expect(canvas.edgeFlow('coordinator', 'researcher')).toHaveCount(0);

    const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
    // In flight: both edges animate (a CSS animation, running) and count one delegation each.
    await expect(canvas.inFlight('coordinator', 'researcher')).toHaveAccessibleName('1 in flight', { timeout: 10_000 });
    await expect(canvas.inFlight('coordinator', 'writer')).toHaveAccessibleName('1 in flight');
    await expect(canvas.edgeFlow('coordinator', 'researcher')).toHaveCount(1);
    const flow = canvas.edgeFlow('coordinator', 'researcher');
    await expect(flow).toHaveCSS('animation-name', 'edge-flow');
    await expect(flow).toHaveCSS('animation-iteration-count', 'infinite');
    await expect(canvas.currentTask('researcher')).toContainText('working');
    await expect(canvas.currentTask('coordinator')).toContainText('turn 1');
    await expect(canvas.currentTask('coordinator')).toContainText('waiting on delegate_task ×2');
    await app.screenshot(`flow-${scheme}-1-in-flight`);

    await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 30_000 });
    await expect(canvas.inFlight('coordinator', 'researcher')).toHaveCount(0);
    await expect(canvas.edgeFlow('coordinator', 'researcher')).toHaveCount(0);
    await expect(canvas.currentTask('coordinator')).toHaveCount(0);
    await expect(entry.getByTestId('delegation-outcome')).toHaveText(['→ researcheranswered', '→ writeranswered']);

    // Each node's last output: cut to two lines, expanded in full, copied whole.
    const answer =
      'Summary: the researcher gathered the facts and the writer drafted the paragraph. Both workers answered.';
    await expect(canvas.lastOutput('coordinator')).toHaveText(answer);
    await expect(canvas.lastOutput('researcher')).toHaveText('Research notes: fact one, fact two, fact three.');
    const clamped = await canvas.lastOutput('coordinator').evaluate((el) => el.scrollHeight > el.clientHeight + 2);
    await canvas.expandLastOutput('coordinator');
    await expect(
      canvas.capsule('coordinator').getByRole('button', { name: 'Collapse last output of coordinator' }),
    ).toHaveAttribute('aria-expanded', 'true');
    expect(await canvas.lastOutput('coordinator').evaluate((el) => el.scrollHeight <= el.clientHeight + 2)).toBe(true);
    expect(clamped || (await canvas.lastOutput('coordinator').evaluate((el) => el.clientHeight)) > 0).toBe(true);
    expect(await canvas.copyLastOutput('coordinator')).toBe(answer);
    await app.screenshot(`flow-${scheme}-2-last-output`);

    // The edge lists the task that crossed it (from the trace); it opens in the inspector.
    const tasks = await canvas.openEdgeTasks('coordinator', 'researcher');
    const row = tasks.getByTestId('edge-task');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('answered');
    const label = (await row.getByRole('button').getAttribute('aria-label'))!;
    const childId = label.replace(/^Open task (\S+) in the inspector$/, '$1');
    expect(childId).toMatch(/^tsk_/);
    // Shown short, as on the node, in the Tasks tab and in the console.
    await expect(row.getByRole('button')).toHaveText(`…${childId.slice(-6)}`);
    await app.screenshot(`flow-${scheme}-3-edge-tasks`);
    await row.getByRole('button', { name: `Open task ${childId} in the inspector` }).click();
    const side = page.getByRole('complementary', { name: 'Details of researcher' });
    await expect(side).toBeVisible();
    await expect(side.getByRole('tab', { name: 'Tasks' })).toHaveAttribute('aria-selected', 'true');
    await expect(side.getByRole('listitem', { name: `Task ${childId}` })).toBeVisible();
    await expect(side.getByRole('listitem', { name: `Task ${childId}` })).toContainText('Research notes: fact one');
    await app.screenshot(`flow-${scheme}-4-inspector`);

    // A canceled run marks both edges until the next run clears the marks.
    const canceled = await app.console.sendTo('coordinator', 'Another note, then never mind');
    await expect(canvas.inFlight('coordinator', 'writer')).toHaveAccessibleName('1 in flight', { timeout: 10_000 });
    await canceled.getByRole('button', { name: 'Cancel' }).click();
    await expect(canceled.getByTestId('task-state')).toHaveText('CANCELED', { timeout: 20_000 });
    await expect(canvas.hopMark('coordinator', 'writer', 'canceled')).toHaveAccessibleName('1 canceled');
    await expect(canvas.hopMark('coordinator', 'researcher', 'canceled')).toHaveAccessibleName('1 canceled');
    await expect(canvas.inFlight('coordinator', 'writer')).toHaveCount(0);
    await expect(canceled.getByTestId('delegation-outcome')).toHaveText(['→ researchercanceled', '→ writercanceled']);
    await app.screenshot(`flow-${scheme}-5-canceled`);
    const next = await app.console.sendTo('coordinator', 'One more note');
    await expect(canvas.inFlight('coordinator', 'writer')).toHaveAccessibleName('1 in flight', { timeout: 10_000 });
    await expect(canvas.hopMark('coordinator', 'writer', 'canceled')).toHaveCount(0);
    await expect(canvas.hopMark('coordinator', 'researcher', 'canceled')).toHaveCount(0);
    await next.getByRole('button', { name: 'Cancel' }).click();
    await expect(next.getByTestId('task-state')).toHaveText('CANCELED', { timeout: 20_000 });
  });
}

// Delegations sent together: the one whose worker answered first stops counting as in flight at
// once, while the other still runs (the coordinator reads both results only when both are back).
test('a delegation whose worker task ended is no longer counted in flight beside a slower one', async ({
  page,
  studio,
}) => {
  test.setTimeout(90_000);
  const file = join(studio.workspace, 'capsules', 'researcher.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('delay_ms: 300', 'delay_ms: 20000'));
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  const app = new StudioPage(page);
  const canvas = app.canvas;
  await page.goto('/');
  await app.launchAndWait(['coordinator', 'researcher', 'writer']);

  const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
  await expect(canvas.inFlight('coordinator', 'researcher')).toHaveAccessibleName('1 in flight', { timeout: 10_000 });
  // The writer's task ends after a moment; its edge stops counting it, the researcher's does not.
  await expect(canvas.lastOutput('writer')).toContainText('Draft', { timeout: 15_000 });
  await expect(canvas.inFlight('coordinator', 'writer')).toHaveCount(0);
  await expect(canvas.edgeFlow('coordinator', 'writer')).toHaveCount(0);
  await expect(canvas.inFlight('coordinator', 'researcher')).toHaveAccessibleName('1 in flight');
  await expect(entry.getByTestId('delegation-outcome').filter({ hasText: '→ writer' })).toContainText('answered');
  await app.screenshot('flow-one-answered-one-in-flight');
  await entry.getByRole('button', { name: 'Cancel' }).click();
  await expect(entry.getByTestId('task-state')).toHaveText('CANCELED', { timeout: 20_000 });
});
