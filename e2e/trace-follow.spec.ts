import type { WebSocket } from '@playwright/test';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// Trace lines reach the page only while its Live trace tab shows their session: the page
// follows the session when the tab opens and lets go when it closes. Counted on the page's own
// contract socket (the trace.appended messages it receives).

test('the page receives trace lines only while the Live trace tab is open', async ({ page, studio }) => {
  let lines = 0;
  page.on('websocket', (ws: WebSocket) =>
    ws.on('framereceived', (f) => {
      if (typeof f.payload !== 'string' || !f.payload.includes('"trace.appended"')) return;
      const msg = JSON.parse(f.payload) as { event?: string; payload?: { events: unknown[] } };
      if (msg.event === 'trace.appended') lines += msg.payload!.events.length;
    }),
  );
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });

  // No view open: a whole task runs and not one of its lines comes to the page.
  const first = await app.console.sendTo('writer', 'Write about the sea');
  await expect(first.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  expect(lines).toBe(0);

  // The tab opens: it reads the session so far (trace.tail) and follows what comes next.
  await app.canvas.select('writer');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  const view = page.getByRole('table', { name: 'Live trace' });
  await expect(view.getByText('task_end', { exact: true })).toBeVisible();
  expect(lines).toBe(0);
  const second = await app.console.sendTo('writer', 'Once more');
  await expect(second.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await expect.poll(() => lines).toBeGreaterThan(0);
  await expect(view.getByText('task_end', { exact: true })).toHaveCount(2);

  // Closed again: the next task's lines stay in the core. The test's own contract socket follows
  // the session, so it knows when the task's last line went out to every follower.
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(view).toHaveCount(0);
  const seen = lines;
  const { sessionId } = (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')!;
  await studio.core.invoke('trace.follow', { sessionId: sessionId! });
  const ended = studio.core.next('trace.appended', (t) => t.events.some((e) => e.event_type === 'task_end'));
  const third = await app.console.sendTo('writer', 'And a third time');
  await expect(third.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 20_000 });
  await ended;
  // Opening the tab again is a round trip on the page's socket: a batch sent to it before would
  // have arrived first. The tab reads the three tasks from the trace, none of them live.
  await page.getByRole('tab', { name: 'Live trace' }).click();
  await expect(view.getByText('task_end', { exact: true })).toHaveCount(3);
  expect(lines).toBe(seen);
});
