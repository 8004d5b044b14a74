import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';

// Frame times measured in the page with requestAnimationFrame (the time between two frames the
// browser got to draw), and the bench/results files the UI measurements go to. A timing is a
// measurement, never a pass/fail assertion (docs/performance.md): the specs assert functional facts.

export interface FrameStats {
  p50: number;
  p95: number;
  max: number;
  /** Frames measured. */
  frames: number;
}

const round = (x: number) => Math.round(x * 10) / 10;

export function frameStats(deltas: number[]): FrameStats {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  return {
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    max: round(sorted[sorted.length - 1] ?? 0),
    frames: sorted.length,
  };
}

/** Starts recording frame times in the page; stop with stopFrames. */
export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __framesOn: boolean };
    w.__frames = [];
    w.__framesOn = true;
    let last = -1;
    const tick = (t: number) => {
      if (last >= 0) w.__frames.push(t - last);
      last = t;
      if (w.__framesOn) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export async function stopFrames(page: Page): Promise<FrameStats> {
  const deltas = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __framesOn: boolean };
    w.__framesOn = false;
    return w.__frames;
  });
  return frameStats(deltas);
}

/** Frame times while `gesture` runs. */
export async function frameTimes(page: Page, gesture: () => Promise<void>): Promise<FrameStats> {
  await startFrames(page);
  await gesture();
  return stopFrames(page);
}

/** Writes a measurement to bench/results/<name>.json. */
export function writeBenchResult(name: string, result: object): void {
  const dir = resolve(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
}

/** Full-size measurements (1M events, a 10 s burst) only when asked: BENCH_FULL=1. */
export const benchFull = (): boolean => process.env.BENCH_FULL === '1';
