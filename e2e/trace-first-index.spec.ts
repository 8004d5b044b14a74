import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Not ./fixtures: this test runs its own web shell on a capsule home holding a trace the index
// has never seen.
import { expect, test } from '@playwright/test';
import { recordPastSession } from './helpers/past-session';
import { SessionsPage } from './pages/sessions';
import { startStudio } from './support/studio';

// A big trace.jsonl that no index has read yet (copied in from another machine, or a studio.db
// deleted) is indexed by the Studio's index worker in the background: the sessions browser says
// so and keeps answering, the session fills in as its batches commit, and it opens like any other.

const EVENTS = 300_000;

test('a big unindexed trace is indexed in the background while the browser shows progress', async ({ page }) => {
  test.setTimeout(120_000);
  const home = mkdtempSync(join(tmpdir(), 'studio-first-index-'));
  const past = await recordPastSession(home, EVENTS, 60_000, { indexed: false });
  const server = await startStudio({ home });
  try {
    const sessions = new SessionsPage(page);
    await page.goto(server.url);
    await sessions.open.click();
    const indexing = sessions.dialog.getByText(/Indexing traces…/);
    await expect(indexing).toBeVisible();
    const entry = sessions.session(past.id);
    await expect(entry).toBeVisible({ timeout: 30_000 });
    await expect(entry).toContainText(`${past.events} events`, { timeout: 60_000 });
    await expect(indexing).toBeHidden();
    await entry.click();
    await expect(sessions.eventRows().filter({ hasText: 'session_start' })).toBeVisible();
    await expect(sessions.eventCount()).toContainText(past.events.toLocaleString('en-US'));
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
});
