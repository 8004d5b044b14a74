import { expect, test } from './fixtures';

// The app loads its workspace and draws the example formation: one orchestrator, two workers.
test('the Studio opens the example workspace with its three capsules', async ({ page, studio }) => {
  await page.goto('/');
  const nodes = page.locator('.react-flow__node');
  await expect(nodes).toHaveCount(3);
  for (const name of ['coordinator', 'researcher', 'writer']) {
    await expect(page.locator('.react-flow__node', { hasText: name }).first()).toBeVisible();
  }
  const formation = await studio.core.invoke('formation.get', {});
  expect(formation.edges.map((e) => e.id).sort()).toEqual(['coordinator->researcher', 'coordinator->writer']);
});
