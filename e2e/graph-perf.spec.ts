import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { StudioPage } from './pages/studio';

// PERFORMANCE.md: 300 capsule nodes, drag and pan with p95 frame time <= 20 ms. Frame times are
// measured in the page with requestAnimationFrame while the pointer moves and written to
// bench/results/graph-frames.json. A timing is a measurement, never a pass/fail assertion: the test
// asserts only that the canvas rendered the formation and really moved under the gestures.

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

async function frameTimes(page: import('@playwright/test').Page, gesture: () => Promise<void>): Promise<{ p95: number; frames: number }> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__frames = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await gesture();
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__stop = true;
    return w.__frames.slice(1);
  });
  const sorted = [...frames].sort((a, b) => a - b);
  return { p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0, frames: frames.length };
}

test('300 capsules: the canvas stays responsive while panning and dragging', async ({ page, studio }) => {
  test.setTimeout(120_000);
  const dir = bigWorkspace();
  try {
    await studio.core.invoke('workspace.open', { dir });
    const app = new StudioPage(page);
    await page.goto('/');
    await expect(app.canvas.capsule('cap-000')).toBeVisible({ timeout: 30_000 });
    const box = (await app.canvas.canvas.boundingBox())!;
    const idle = await frameTimes(page, () => page.waitForTimeout(1000));

    const pan = await frameTimes(page, async () => {
      // Empty canvas space right of the node grid's first card, at the top edge of the pane.
      await page.mouse.move(box.x + box.width - 60, box.y + 20);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 59, box.y + 21);
      await page.mouse.move(box.x + box.width - 400, box.y + 300, { steps: 40 });
      await page.mouse.up();
    });
    const before = (await app.canvas.capsule('cap-000').boundingBox())!;
    const drag = await frameTimes(page, () => app.canvas.dragNode('cap-000', 200, 120));
    const after = (await app.canvas.capsule('cap-000').boundingBox())!;
    expect(Math.abs(after.x - before.x) + Math.abs(after.y - before.y)).toBeGreaterThan(50);
    const result = { nodes: COUNT, target_p95_ms: TARGET_P95_MS, pan, drag, idle, measured_at: new Date().toISOString() };
    console.log(`graph ${COUNT} nodes: pan p95 ${pan.p95.toFixed(1)} ms, drag p95 ${drag.p95.toFixed(1)} ms, idle p95 ${idle.p95.toFixed(1)} ms`);
    const results = resolve(__dirname, '..', 'bench', 'results');
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'graph-frames.json'), JSON.stringify(result, null, 2) + '\n');
    expect(pan.frames).toBeGreaterThan(5);
    expect(drag.frames).toBeGreaterThan(5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
