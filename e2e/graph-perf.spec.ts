import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { frameTimes, writeBenchResult } from './helpers/frames';
import { StudioPage } from './pages/studio';

// PERFORMANCE.md: 300 capsule nodes, drag and pan with p95 frame time <= 20 ms. Frame times are
// measured in the page with requestAnimationFrame while the pointer moves and written to
// bench/results/graph-frames.json, with the main thread's CPU time per pointer move and for the
// grab (Chrome's Performance metrics, less sensitive to a busy machine than frame times). A timing is a
// measurement, never a pass/fail assertion: the test asserts only that the canvas rendered the
// formation and really moved under the gestures.

test.use({ trace: 'off' }); // the trace recorder's snapshots would dominate the frame times

const COUNT = 300;
const TARGET_P95_MS = 20;

function bigWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'studio-big-'));
  mkdirSync(join(dir, 'capsules'));
  const lines = ['capsules:'];
  for (let i = 0; i < COUNT; i++) {
    const name = `cap-${String(i).padStart(3, '0')}`;
    writeFileSync(
      join(dir, 'capsules', `${name}.yaml`),
      `name: ${name}\nversion: "0.1.0"\nrole: ${i % 10 === 0 ? 'orchestrator' : 'worker'}\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n`,
    );
    lines.push(`  - id: ${name}`, `    manifest: capsules/${name}.yaml`, `    position: { x: ${(i % 20) * 280}, y: ${Math.floor(i / 20) * 200} }`);
  }
  writeFileSync(join(dir, 'formation.yaml'), lines.join('\n') + '\nremotes: []\n');
  return dir;
}

const MOVES = 40;

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: all } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(all.map((m) => [m.name, m.value]));
}

/** Resolves once the page has drawn two more frames (the work an input caused is done). */
const settled = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

interface Gesture {
  /** Mouse down and the 1 px nudge past the drag threshold (TOOLCHAIN.md). */
  grab(): Promise<void>;
  /** MOVES pointer moves. */
  move(): Promise<void>;
}

/**
 * Frame times of a pointer gesture, and the main thread's CPU time (thread ticks, so a busy
 * machine inflates it less than frame times) for the grab and per pointer move.
 */
async function measure(page: Page, cdp: CDPSession, gesture: Gesture) {
  const ms = (a: Record<string, number>, b: Record<string, number>, name: string, per = 1) => Math.round(((b[name] - a[name]) * 1000 * 10) / per) / 10;
  let m0: Record<string, number> = {};
  let m1: Record<string, number> = {};
  let m2: Record<string, number> = {};
  let moving = 0;
  const frames = await frameTimes(page, async () => {
    m0 = await metrics(cdp);
    await gesture.grab();
    await settled(page);
    m1 = await metrics(cdp);
    const t = performance.now();
    await gesture.move();
    await settled(page);
    moving = performance.now() - t;
    m2 = await metrics(cdp);
    await page.mouse.up();
  });
  return {
    ...frames,
    grab_script_ms: ms(m0, m1, 'ScriptDuration'),
    grab_main_thread_ms: ms(m0, m1, 'TaskDuration'),
    script_ms_per_move: ms(m1, m2, 'ScriptDuration', MOVES),
    style_layout_ms_per_move: Math.round((ms(m1, m2, 'RecalcStyleDuration', MOVES) + ms(m1, m2, 'LayoutDuration', MOVES)) * 10) / 10,
    main_thread_ms_per_move: ms(m1, m2, 'TaskDuration', MOVES),
    /** Wall time per move: how far the page lags the pointer when a move costs more than a frame. */
    wall_ms_per_move: Math.round((moving * 10) / MOVES) / 10,
  };
}

/** A gesture from `from` to `from + by`, in MOVES steps. */
function pointerGesture(page: Page, from: { x: number; y: number }, by: { x: number; y: number }): Gesture {
  return {
    async grab() {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x + 1, from.y + 1);
    },
    move: () => page.mouse.move(from.x + by.x, from.y + by.y, { steps: MOVES }),
  };
}

test('300 capsules: the canvas stays responsive while panning and dragging', async ({ page, studio }) => {
  test.setTimeout(120_000);
  const dir = bigWorkspace();
  try {
    await studio.core.invoke('workspace.open', { dir });
    const app = new StudioPage(page);
    await page.goto('/');
    await expect(app.canvas.capsule('cap-000')).toBeVisible({ timeout: 30_000 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const box = (await app.canvas.canvas.boundingBox())!;
    const idle = await frameTimes(page, () => page.waitForTimeout(1000));

    // Empty canvas space right of the node grid's first card, at the top edge of the pane.
    const pan = await measure(page, cdp, pointerGesture(page, { x: box.x + box.width - 60, y: box.y + 20 }, { x: -340, y: 280 }));
    const before = (await app.canvas.capsule('cap-000').boundingBox())!;
    // The card's header, clear of its buttons (as CanvasPage.dragNode grips it). The grab selects
    // the capsule, so the side panel switching to it is part of the grab's cost.
    const grip = (await app.canvas.nodeById('cap-000').boundingBox())!;
    const at = { x: grip.x + Math.min(40, grip.width / 2), y: grip.y + Math.min(12, grip.height / 2) };
    const drag = await measure(page, cdp, pointerGesture(page, at, { x: 200, y: 120 }));
    const after = (await app.canvas.capsule('cap-000').boundingBox())!;
    expect(Math.abs(after.x - before.x) + Math.abs(after.y - before.y)).toBeGreaterThan(50);
    await page.screenshot({ path: test.info().outputPath('graph-300.png') });
    await cdp.detach();

    // The drop saved the new place, and the whole drag is one undo step.
    const placeOf = async () => (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'cap-000')!.position;
    await expect.poll(placeOf).not.toEqual({ x: 0, y: 0 });
    const dropped = await placeOf();
    // The step is recorded once the core answered the move (the poll may see the file first).
    await expect(page.getByRole('button', { name: 'Undo' })).toBeEnabled();
    await page.keyboard.press('Control+z');
    await expect.poll(placeOf).toEqual({ x: 0, y: 0 });
    await expect(page.getByRole('button', { name: 'Redo' })).toBeEnabled();
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(placeOf).toEqual(dropped);

    const result = { nodes: COUNT, target_p95_ms: TARGET_P95_MS, pan, drag, idle, measured_at: new Date().toISOString() };
    console.log(
      `graph ${COUNT} nodes: pan p95 ${pan.p95} ms (main thread ${pan.main_thread_ms_per_move} ms/move, script ${pan.script_ms_per_move}, wall ${pan.wall_ms_per_move}), ` +
        `drag p95 ${drag.p95} ms max ${drag.max} (main thread ${drag.main_thread_ms_per_move} ms/move, script ${drag.script_ms_per_move}, wall ${drag.wall_ms_per_move}; grab ${drag.grab_main_thread_ms} ms), idle p95 ${idle.p95} ms`,
    );
    writeBenchResult('graph-frames', result);
    expect(pan.frames).toBeGreaterThan(5);
    expect(drag.frames).toBeGreaterThan(5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
