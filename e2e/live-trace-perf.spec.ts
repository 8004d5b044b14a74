import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { benchFull, startFrames, stopFrames, writeBenchResult } from './helpers/frames';
import { StudioPage } from './pages/studio';

// docs/performance.md: a live trace burst of 10k events/s for 10 s reaches the view with p95 frame time
// <= 32 ms and no lost events. The burst comes from the running writer capsule itself: its
// rehearsal script streams N text fragments at a rate (turn `stream`), each one a trace line the
// core forwards in trace.appended batches to the open Live trace tab. Frame times in the page
// during the burst go to bench/results/live-trace-ui.json; the test asserts that nothing was lost
// (the view counts every line of trace.jsonl, and shows the last fragment).
// 10 s with BENCH_FULL=1; 2 s otherwise, to keep npm test quick.

test.use({ trace: 'off' }); // the trace recorder's snapshots would dominate the frame times

const RATE = 10_000;
const SECONDS = benchFull() ? 10 : 2;
const FRAMES = RATE * SECONDS;
const TARGET_P95_MS = 32;

const traceLines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Counts the frames in which the Live trace list showed no row inside its visible area. */
async function watchBlankFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __sight: { looked: number; blank: number; on: boolean } };
    w.__sight = { looked: 0, blank: 0, on: true };
    const look = () => {
      const list = document.querySelector<HTMLElement>('[aria-label="Live trace"]');
      if (list) {
        const box = list.getBoundingClientRect();
        const seen = Array.from(list.querySelectorAll('[role="row"]')).some((r) => {
          const b = r.getBoundingClientRect();
          return b.bottom > box.top && b.top < box.bottom;
        });
        w.__sight.looked++;
        if (!seen) w.__sight.blank++;
      }
      if (w.__sight.on) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}

/** The page's main-thread totals (seconds) from the DevTools protocol: they count work done, not wall time. */
async function mainThread(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const pick = [
    'ScriptDuration',
    'LayoutDuration',
    'RecalcStyleDuration',
    'TaskDuration',
    'LayoutCount',
    'RecalcStyleCount',
  ];
  return Object.fromEntries(metrics.filter((m) => pick.includes(m.name)).map((m) => [m.name, m.value]));
}

async function stopWatching(page: Page): Promise<{ looked: number; blank: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __sight: { looked: number; blank: number; on: boolean } };
    w.__sight.on = false;
    return { looked: w.__sight.looked, blank: w.__sight.blank };
  });
}

test('a burst of trace lines reaches the live trace view whole while the page keeps drawing', async ({
  page,
  studio,
  studioServer,
}) => {
  test.setTimeout(SECONDS * 1000 + 60_000);
  // The writer's one scripted turn streams the burst, then answers.
  const file = join(studio.workspace, 'capsules/writer.yaml');
  const yaml = readFileSync(file, 'utf8').replace(
    /^( *)- text: "Draft:[^"]*"$/m,
    `$1- text: "Burst done."\n$1  stream: { frames: ${FRAMES}, per_second: ${RATE} }`,
  );
  expect(yaml).toContain('stream:');
  writeFileSync(file, yaml);
  await studio.core.invoke('workspace.open', { dir: studio.workspace });

  // trace.appended messages the page receives over the contract socket (the batches it folds in).
  let batches = 0;
  page.on('websocket', (ws) =>
    ws.on(
      'framereceived',
      (f) => void (typeof f.payload === 'string' && f.payload.includes('"trace.appended"') && batches++),
    ),
  );
  const app = new StudioPage(page);
  await page.goto('/');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  const sessionId = (await studio.core.invoke('formation.get', {})).capsules.find(
    (c) => c.name === 'writer',
  )!.sessionId!;
  const tracePath = join(studioServer.home, 'records', sessionId, 'trace.jsonl');

  // The Live trace tab is open (and has read the session so far) before the burst starts.
  await app.canvas.select('writer');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  const view = page.getByRole('table', { name: 'Live trace' });
  const count = page.getByTestId('trace-count');
  await expect(view.getByText('session_start', { exact: true })).toBeVisible();
  const shownBefore = Number((await count.textContent())!.split(' ')[0].replace(/\D/g, ''));

  await startFrames(page);
  await watchBlankFrames(page);
  const work0 = await mainThread(cdp);
  // LIVE_TRACE_PROFILE=<file.cpuprofile> records a JavaScript profile of the page during the burst.
  const profilePath = process.env.LIVE_TRACE_PROFILE;
  if (profilePath) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  // LIVE_TRACE_TIMELINE=<file.json> records a DevTools timeline (layouts, style, paint) instead.
  const timelinePath = process.env.LIVE_TRACE_TIMELINE;
  if (timelinePath)
    await page
      .context()
      .browser()!
      .startTracing(page, {
        path: timelinePath,
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
      });
  const batches0 = batches;
  const sent = Date.now();
  const entry = await app.console.sendTo('writer', 'Burst of fragments');
  // Mid-burst, the view is already following it.
  await expect
    .poll(async () => Number((await count.textContent())!.split(' ')[0].replace(/\D/g, '')), { timeout: 20_000 })
    .toBeGreaterThan(shownBefore + FRAMES / 2);
  await page.screenshot({ path: join(test.info().project.outputDir, 'screenshots', 'live-trace-burst.png') });
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: SECONDS * 1000 + 30_000 });
  const burstMs = Date.now() - sent;
  const frames = await stopFrames(page);
  const sight = await stopWatching(page);
  const work1 = await mainThread(cdp);
  if (timelinePath) await page.context().browser()!.stopTracing();
  if (profilePath) writeFileSync(profilePath, JSON.stringify((await cdp.send('Profiler.stop')).profile));
  const burstBatches = batches - batches0;
  const perBatch = (k: string) => Math.round(((work1[k] - work0[k]) * 1e6) / Math.max(1, burstBatches)) / 1000;

  // Every line written reaches the view: its count settles on the file's line count.
  let lines = traceLines(tracePath);
  await expect
    .poll(
      async () => {
        lines = traceLines(tracePath);
        return Number((await count.textContent())!.split(' ')[0].replace(/\D/g, '')) - lines.length;
      },
      { timeout: 10_000 },
    )
    .toBe(0);
  const shown = Number((await count.textContent())!.split(' ')[0].replace(/\D/g, ''));
  const fragments = lines.filter((l) => l.event_type === 'frame');
  expect(fragments).toHaveLength(FRAMES);
  expect(shown).toBe(lines.length);
  // Following the end, the view shows the last fragment and the task's end.
  await expect(view.getByRole('row').filter({ hasText: new RegExp(`fragment ${FRAMES}\\b`) })).toBeVisible();
  await expect(view.getByText('task_end', { exact: true })).toBeVisible();
  await page.screenshot({ path: join(test.info().project.outputDir, 'screenshots', 'live-trace-rest.png') });
  const domRows = await view.getByRole('row').count();
  expect(domRows).toBeLessThan(200);
  expect(frames.frames).toBeGreaterThan(10);
  // Following the burst, the list showed rows on every frame, not an empty stretch of itself.
  expect(sight.looked).toBeGreaterThan(10);
  expect(sight.blank).toBe(0);

  const ts = (l: Record<string, unknown>) => Date.parse(String(l.ts));
  const streamedMs = ts(fragments[fragments.length - 1]) - ts(fragments[0]);
  const result = {
    rate: RATE,
    seconds: SECONDS,
    mode: benchFull() ? 'full' : 'ci',
    written: fragments.length,
    trace_lines: lines.length,
    shown,
    lost: lines.length - shown,
    streamed_ms: streamedMs,
    achieved_per_s: Math.round(fragments.length / (streamedMs / 1000)),
    burst_wall_ms: burstMs,
    frames: { p95: frames.p95, p50: frames.p50, max: frames.max, count: frames.frames },
    dom_rows: domRows,
    batches: burstBatches,
    // Main-thread time per trace.appended batch (ms), from Performance.getMetrics deltas over the
    // burst; less sensitive to a loaded machine than frame times. Includes the mid-burst screenshot.
    per_batch_ms: {
      script: perBatch('ScriptDuration'),
      layout: perBatch('LayoutDuration'),
      style: perBatch('RecalcStyleDuration'),
      task: perBatch('TaskDuration'),
    },
    layouts: work1.LayoutCount - work0.LayoutCount,
    blank_frames: sight.blank,
    target_p95_ms: TARGET_P95_MS,
    note: 'frames: rAF intervals in the page from sending the task until it completed (includes one screenshot mid-burst); written: trace lines of the burst; shown: the Live trace tab count (all lines of the session)',
    measured_at: new Date().toISOString(),
  };
  console.log(
    `live trace ${RATE}/s for ${SECONDS} s: ${shown}/${lines.length} lines shown, frame p95 ${frames.p95} ms (max ${frames.max}), ${frames.frames} frames; ${burstBatches} batches, ${result.per_batch_ms.script} ms script / ${result.per_batch_ms.task} ms task per batch`,
  );
  writeBenchResult('live-trace-ui', result);
});

test('scrolling up during a burst stops following; scrolling back to the end follows again', async ({
  page,
  studio,
}) => {
  const frames = 20_000;
  const file = join(studio.workspace, 'capsules/writer.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      /^( *)- text: "Draft:[^"]*"$/m,
      `$1- text: "Burst done."\n$1  stream: { frames: ${frames}, per_second: 4000 }`,
    ),
  );
  await studio.core.invoke('workspace.open', { dir: studio.workspace });
  const app = new StudioPage(page);
  await page.goto('/');
  await app.canvas.capsule('writer').getByRole('button', { name: 'Launch writer' }).click();
  await expect(app.stateOf('writer')).toHaveText('Idle', { timeout: 20_000 });
  await app.canvas.select('writer');
  await page.getByRole('tab', { name: 'Live trace' }).click();
  const view = page.getByRole('table', { name: 'Live trace' });
  const count = page.getByTestId('trace-count');
  const shown = async () => Number((await count.textContent())!.split(' ')[0].replace(/\D/g, ''));
  await expect(view.getByText('session_start', { exact: true })).toBeVisible();

  const entry = await app.console.sendTo('writer', 'Burst of fragments');
  await expect.poll(shown, { timeout: 20_000 }).toBeGreaterThan(2000);
  await view.hover();
  await page.mouse.wheel(0, -600);
  // The rows in view stay put while lines keep arriving.
  await expect.poll(() => view.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)).toBeGreaterThan(300);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const rowsNow = async () => (await view.getByRole('row').allTextContents()).join('\n');
  const held = await rowsNow();
  const countThen = await shown();
  await expect.poll(shown).toBeGreaterThan(countThen + 1000);
  expect(await rowsNow()).toBe(held);
  await expect(entry.getByTestId('task-state')).toHaveText('COMPLETED', { timeout: 30_000 });
  // Back at the end, the list follows again: the last fragment and the task's end are in view.
  await view.press('End');
  await expect(view.getByRole('row').filter({ hasText: new RegExp(`fragment ${frames}\\b`) })).toBeVisible();
  await expect(view.getByText('task_end', { exact: true })).toBeVisible();
});
