import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// Screenshots of the main views in both themes, at 1280x800, for a person to look at
// (test-results/screenshots/*.png). The checks keep them honest: nothing may overlap.

for (const scheme of ['dark', 'light'] as const) {
  test(`main views in the ${scheme} theme`, async ({ page, studio }) => {
    await page.emulateMedia({ colorScheme: scheme });
    void studio; // the fixture opened this test's own workspace
    const app = new StudioPage(page);
    await page.goto('/');
    await expect(app.canvas.capsule('coordinator')).toBeVisible();
    await app.screenshot(`canvas-${scheme}`);

    // No two node cards overlap on the canvas.
    const boxes = await page.locator('.react-flow__node').evaluateAll((ns) => ns.map((n) => n.getBoundingClientRect().toJSON() as DOMRect));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top, `nodes ${i} and ${j} overlap`).toBe(true);
      }

    await app.canvas.select('writer');
    await app.screenshot(`manifest-form-${scheme}`);
    await app.manifest.showYaml();
    const text = await app.manifest.yamlText();
    await app.manifest.setYaml(text.replace('max_turns', 'max_turns').replace(/^version:.*$/m, 'version: [0.1'));
    await expect(app.manifest.problems).toBeVisible();
    await app.screenshot(`manifest-yaml-error-${scheme}`);
    await page.getByRole('button', { name: 'Revert' }).click();

    await app.launchAll.click();
    await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
    const entry = await app.console.sendTo('coordinator', 'Plan a short trip');
    await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
    await app.canvas.select('coordinator');
    await page.getByRole('tab', { name: 'Live trace' }).click();
    await expect(page.getByRole('table', { name: 'Live trace' }).getByText('task_end', { exact: true })).toBeVisible();
    await app.screenshot(`running-trace-${scheme}`);
    await page.getByRole('tab', { name: 'Tasks' }).click();
    await app.screenshot(`running-tasks-${scheme}`);
  });
}
