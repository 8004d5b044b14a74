import { expect, test } from './fixtures';
import { ReplayPage } from './pages/replay';
import { SessionsPage } from './pages/sessions';
import { StudioPage } from './pages/studio';

// Replay a recorded run of the example formation on the canvas from its traces alone: step to a
// hop in flight and to a worker's output, play and pause, jump to the end for the final outputs,
// see the trace view and the timeline follow the cursor, and nothing runs meanwhile (no new
// session, no new task at any door). Then the same from the command palette, and back to live.

test.use({ viewport: { width: 1440, height: 900 } });

for (const scheme of ['light', 'dark'] as const) {
  test(`replay a recorded formation run, running nothing (${scheme})`, async ({ page, studio }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    const app = new StudioPage(page);
    const sessions = new SessionsPage(page);
    const replay = new ReplayPage(page);
    const canvas = app.canvas;
    await page.goto('/');
    await app.launchAndWait(['coordinator', 'researcher', 'writer']);
    const entry = await app.console.sendTo('coordinator', 'Write a note about tide pools');
    await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 30_000 });
    const answer = (await canvas.lastOutput('coordinator').textContent())!;
    expect(answer).toContain('gathered');

    // What ran so far: every capsule's task count, and the recorded sessions.
    const ran = async () => {
      const f = await studio.core.invoke('formation.get', {});
      const list = await studio.core.invoke('sessions.list', {});
      // A door that took a request would have written its trace: every session's line count stays.
      return {
        tasks: f.capsules.map((c) => [c.name, c.tasks, c.sessionId]),
        sessions: list.sessions.map((s) => [s.id, s.tasks, s.events]).sort(),
      };
    };
    const before = await ran();
    const coordinatorSession = (await studio.core.invoke('formation.get', {})).capsules.find(
      (c) => c.name === 'coordinator',
    )!.sessionId!;

    // Replay from the sessions browser: the overlay steps aside, the canvas starts empty.
    await sessions.open.click();
    await sessions.search.fill('gathered');
    await sessions.session(coordinatorSession).click();
    await sessions.dialog.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect(sessions.dialog).toBeHidden();
    await expect(replay.bar).toBeVisible();
    await expect(replay.bar).toContainText('coordinator');
    await expect(replay.position).toHaveText(/^0\/\d+/);
    await expect(canvas.lastOutput('coordinator')).toHaveCount(0);

    // Next hop: the coordinator's first delegation is on its way.
    await replay.nextHop.click();
    await expect(canvas.inFlight('coordinator', 'researcher')).toHaveAccessibleName('1 in flight');
    await expect(canvas.edgeFlow('coordinator', 'researcher')).toHaveCount(1);
    await expect(canvas.currentTask('coordinator')).toBeVisible();
    await app.screenshot(`replay-${scheme}-1-hop-in-flight`);

    // Step on, event by event, until the researcher's answer is its last output.
    const { of } = await replay.cursor();
    for (let i = 0; i < of && (await canvas.lastOutput('researcher').count()) === 0; i++) await replay.step.click();
    await expect(canvas.lastOutput('researcher')).toHaveText('Research notes: fact one, fact two, fact three.');
    expect(await canvas.lastOutput('coordinator').count()).toBe(0);

    // The live trace view follows the cursor: the researcher's recorded lines up to it.
    await canvas.select('researcher');
    await page.getByRole('tab', { name: 'Live trace' }).click();
    const trace = page.getByRole('table', { name: 'Replayed trace' });
    await expect(trace.getByText('task_end', { exact: true })).toBeVisible();
    await expect(page.getByText('Replay · researcher')).toBeVisible();
    await app.screenshot(`replay-${scheme}-2-last-output`);

    // Play, then pause: it holds its place. From the start at the slowest speed; the run lasts about
    // a second, so a busy machine may still reach the end before the pause lands: then start over.
    await replay.speed.selectOption('0.25');
    let paused = { at: of, of };
    for (let attempt = 0; attempt < 3 && paused.at >= of; attempt++) {
      await replay.scrubber.fill('0');
      await expect(replay.position).toHaveText(new RegExp(`^0/${of}`));
      await replay.play.click();
      const pausedInTime = await replay.pause.click({ timeout: 2_000 }).then(
        () => true,
        () => false,
      );
      if (!pausedInTime) continue;
      await expect(replay.play.or(replay.bar.getByRole('button', { name: 'Replay again' }))).toBeVisible();
      paused = await replay.cursor();
    }
    await expect(replay.play).toBeVisible();
    await expect(replay.scrubber).toHaveValue(String(paused.at));
    expect(paused.at).toBeLessThan(of);

    // Jump to the end: the final outputs, nothing left in flight.
    await replay.jumpToEnd.click();
    await expect(replay.position).toHaveText(new RegExp(`^${of}/${of}`));
    await expect(canvas.lastOutput('coordinator')).toHaveText(answer);
    await expect(canvas.lastOutput('writer')).toBeVisible();
    await expect(canvas.inFlight('coordinator', 'researcher')).toHaveCount(0);
    await expect(canvas.inFlight('coordinator', 'writer')).toHaveCount(0);
    await app.screenshot(`replay-${scheme}-3-end`);

    // Back through the scrubber to the start, then the timeline shows the replay's cursor.
    await replay.scrubber.fill('0');
    await expect(replay.position).toHaveText(/^0\//);
    await expect(canvas.lastOutput('coordinator')).toHaveCount(0);
    await sessions.open.click();
    await sessions.dialog.getByRole('tab', { name: 'Timeline' }).click();
    await expect(sessions.dialog.getByTestId('timeline-replay-cursor')).toBeAttached();
    await app.screenshot(`replay-${scheme}-4-timeline`);
    await sessions.dialog.getByRole('button', { name: 'Close sessions' }).click();

    // Exit: the live state is back.
    await replay.exit.click();
    await expect(replay.bar).toBeHidden();
    await expect(canvas.lastOutput('coordinator')).toHaveText(answer);

    // From the palette: the open session replays again, played at once.
    await app.palette.open();
    await app.palette.run('replay session', 'Replay session');
    await expect(replay.bar).toBeVisible();
    await replay.speed.selectOption('instant');
    await expect(canvas.lastOutput('coordinator')).toHaveText(answer);
    await replay.exit.click();

    // Nothing ran: no new session, no new task in any capsule or session.
    expect(await ran()).toEqual(before);
  });
}
