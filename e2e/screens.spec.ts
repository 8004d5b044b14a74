import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { InspectorPage } from './pages/inspector';
import { SecretsPage } from './pages/secrets';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';

// Screenshots of every main screen in both themes at 1440x900, for a person to look at
// (test-results/screenshots/screen-*.png): the canvas, the manifest form, the YAML editor, the
// console, the task inspector, the live trace, expose, secrets, the command palette, the context
// menu, the sessions browser and the timeline. The checks keep them honest: nothing overlaps,
// nothing is clipped, and the empty states say what is true at that moment.

test.use({ viewport: { width: 1440, height: 900 } });

/** The elements of a kind that overlap each other (their indexes). */
async function overlaps(page: Page, selector: string): Promise<string[]> {
  const boxes = await page
    .locator(selector)
    .evaluateAll((ns) => ns.map((n) => n.getBoundingClientRect().toJSON() as DOMRect));
  const bad: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (!(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top)) bad.push(`${i}/${j}`);
    }
  return bad;
}

/** Buttons of the toolbar whose label does not fit (the text is wider than the button). */
async function clippedButtons(page: Page): Promise<string[]> {
  return page
    .locator('.toolbar button, .console-bar button, .manifest-actions button')
    .evaluateAll((bs) =>
      bs
        .filter((b) => (b as HTMLElement).offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
        .map((b) => b.textContent ?? ''),
    );
}

for (const scheme of ['dark', 'light'] as const) {
  test(`every main screen in the ${scheme} theme`, async ({ page, studio }) => {
    test.setTimeout(150_000);
    await page.emulateMedia({ colorScheme: scheme });
    const app = new StudioPage(page);
    const ins = new InspectorPage(page);
    const sessions = new SessionsPage(page);
    const secrets = new SecretsPage(page);
    const shot = async (name: string) => {
      await page.mouse.move(720, 880); // off the canvas: no hover outline in the picture
      await app.screenshot(`screen-${name}-${scheme}`);
    };
    await page.goto('/');
    await expect(app.canvas.capsule('coordinator')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Console' })).toContainText('Launch all (in the toolbar)');
    expect(await overlaps(page, '.react-flow__node')).toEqual([]);
    expect(await clippedButtons(page)).toEqual([]);
    await shot('01-canvas');

    // The manifest form, then the YAML editor with a problem shown at its line.
    await app.canvas.select('writer');
    await expect(ins.panel('writer')).toBeVisible();
    await shot('02-manifest-form');
    await app.manifest.showYaml();
    const text = await app.manifest.yamlText();
    await app.manifest.setYaml(text.replace(/^version:.*$/m, 'version: [0.1'));
    await expect(app.manifest.problems).toBeVisible();
    await expect(app.manifest.diagnostics.first()).toBeVisible();
    await shot('03-yaml-editor');
    await page.getByRole('button', { name: 'Revert' }).click();
    await expect(app.manifest.problems).toBeHidden();
    await app.manifest.showForm();

    // The canvas's context menu and the command palette.
    await app.tools.menuOnNode('researcher');
    await shot('04-context-menu');
    await page.keyboard.press('Escape');
    await expect(app.tools.menu).toBeHidden();
    await app.palette.open();
    await app.palette.input.fill('wr');
    await expect(app.palette.active()).toContainText('writer');
    await shot('05-command-palette');
    await page.keyboard.press('Escape');
    await expect(app.palette.dialog).toBeHidden();

    // Secrets (names only; values never shown back).
    await secrets.open.click();
    await expect(secrets.dialog).toBeVisible();
    await shot('06-secrets');
    await page.keyboard.press('Escape');
    await expect(secrets.dialog).toBeHidden();

    // One worker launched alone: the console's stopped coordinator is said to be stopped, not the formation.
    await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
    await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 30_000 });
    await app.console.target.selectOption('coordinator');
    await expect(app.console.log).toContainText('coordinator is stopped: launch it from its node');

    // Launched: the console's empty state says the capsule is ready, not "launch the formation".
    await app.launchAll.click();
    for (const name of ['coordinator', 'researcher', 'writer'])
      await expect(app.stateOf(name)).toHaveText('Idle', { timeout: 30_000 });
    await app.console.target.selectOption('coordinator');
    await expect(app.console.log).not.toContainText('Launch all (in the toolbar)');
    await expect(app.console.log).toContainText('A new conversation with coordinator');
    await shot('07-console-ready');

    // A run: the console's conversation, the nodes' last outputs.
    const entry = await app.console.say('Write a note about tide pools');
    await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 30_000 });
    await expect(app.canvas.lastOutput('coordinator')).toBeVisible();
    const taskId = (await app.console.taskIdOf(entry)).trim();
    expect(await overlaps(page, '.react-flow__node')).toEqual([]);
    expect(await clippedButtons(page)).toEqual([]);
    await shot('08-console-conversation');

    // The task inspector, then the live trace with a row open.
    await app.canvas.select('coordinator');
    await ins.openTab('Tasks');
    await expect(await ins.openTask(taskId)).toBeVisible();
    await expect(ins.section(taskId, 'Delegations').getByRole('listitem')).toHaveCount(2);
    await shot('09-inspector');
    await ins.openTab('Live trace');
    await expect(ins.traceRow(/task_end/)).toBeVisible();
    await ins
      .traceRow(/tool_call.*delegate_task/)
      .first()
      .click();
    await expect(ins.liveTrace.getByRole('row', { name: 'tool_call event' })).toHaveAttribute('aria-expanded', 'true');
    await shot('10-live-trace');

    // Expose the coordinator to outside callers.
    await ins.openTab('Manifest');
    await page.getByText('Expose to outside callers').click();
    await page.getByRole('switch', { name: 'Expose coordinator through the gateway' }).click();
    await expect(page.getByRole('region', { name: 'New token' })).toBeVisible();
    await page.getByRole('region', { name: 'New token' }).scrollIntoViewIfNeeded();
    await shot('11-expose');
    await page.getByRole('button', { name: 'Revoke the token and stop exposing' }).click();
    await expect(page.getByRole('switch', { name: 'Expose coordinator through the gateway' })).not.toBeChecked();

    // The sessions browser with the run's session open, then its timeline.
    const sessionId = (await studio.core.invoke('formation.get', {})).capsules.find(
      (c) => c.name === 'coordinator',
    )!.sessionId!;
    await sessions.open.click();
    await expect(sessions.dialog).toBeVisible();
    await sessions.session(sessionId).click();
    await expect(sessions.events.getByText('task_end', { exact: true })).toBeVisible();
    await shot('12-sessions');
    await sessions.dialog.getByRole('button', { name: 'Show on timeline' }).click();
    await expect(sessions.timelineTasks.getByRole('button').first()).toBeVisible();
    await shot('13-timeline');
    await sessions.dialog.getByRole('button', { name: 'Close sessions' }).click();
    await expect(sessions.dialog).toBeHidden();

    // The minimap over the run's canvas.
    if (!(await app.tools.minimap.isVisible())) await app.tools.minimapToggle.click();
    await expect(app.tools.minimap).toBeVisible();
    await page.getByRole('button', { name: 'Close details' }).click();
    // Closed, nothing is drawn selected: the panel and the canvas agree.
    await expect(page.locator('.react-flow__node.selected')).toHaveCount(0);
    await app.tools.fitView.click();
    await shot('14-canvas-after-run');
  });
}
