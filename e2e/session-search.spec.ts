import { expect, test } from './fixtures';
import { SessionsPage } from './pages/sessions';
import { SCREENSHOT_DIR, StudioPage } from './pages/studio';

// A text search in the sessions browser shows, under each session found, the line that matched:
// its type and its text around the words, the words highlighted.

test('a session search shows and highlights the matched snippet', async ({ page, studio }) => {
  const app = new StudioPage(page);
  const sessions = new SessionsPage(page);
  await page.goto('/');
  await app.launchAll.click();
  await expect(app.stateOf('coordinator')).toHaveText('Idle', { timeout: 20_000 });
  const done = await app.console.sendTo('coordinator', 'Write a note about the octopus gardens');
  await expect(done.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  const origin = (await studio.core.invoke('formation.get', {})).capsules.find(
    (c) => c.name === 'coordinator',
  )!.sessionId!;

  await sessions.open.click();
  await sessions.search.fill('Octopus');
  const item = sessions.session(origin);
  await expect(item).toBeVisible();
  const snippet = item.getByTestId('session-match');
  await expect(snippet).toContainText('Write a note about the octopus gardens');
  await expect(snippet.locator('mark')).toHaveText(['octopus']);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/session-search.png` });

  // Two words: both highlighted wherever they stand.
  await sessions.search.fill('gardens OCTOPUS');
  await expect(snippet.locator('mark')).toHaveText(['octopus', 'gardens']);
  // Without a search, no snippet.
  await sessions.search.fill('');
  await expect(item).toBeVisible();
  await expect(item.getByTestId('session-match')).toHaveCount(0);
});
