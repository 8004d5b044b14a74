import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

// Where a secret typed into the Studio may go: the one WebSocket frame of the call that set it,
// and nowhere else (no other frame, the page, the traces of the sessions that ran).

export interface Frames {
  frames: { sent: boolean; payload: string }[];
}

/** Records every WebSocket frame the page sends and receives from now on. */
export function recordFrames(page: Page): Frames {
  const out: Frames = { frames: [] };
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => out.frames.push({ sent: true, payload: String(f.payload) }));
    ws.on('framereceived', (f) => out.frames.push({ sent: false, payload: String(f.payload) }));
  });
  return out;
}

/** The value crossed once, sent by the page in the `cmd` call, and is not in the page now. */
export async function expectOnlyIn(page: Page, recorded: Frames, value: string, cmd: string): Promise<void> {
  const carrying = recorded.frames.filter((f) => f.payload.includes(value));
  expect(carrying).toHaveLength(1);
  expect(carrying[0].sent).toBe(true);
  expect(JSON.parse(carrying[0].payload)).toMatchObject({ type: 'invoke', cmd });
  expect(await page.content()).not.toContain(value);
}

/** No trace under the Studio home's records holds the value (and at least `min` sessions were recorded). */
export function expectNotInTraces(home: string, value: string, min = 3): void {
  const records = join(home, 'records');
  const traces = readdirSync(records, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('trace.jsonl'));
  expect(traces.length).toBeGreaterThanOrEqual(min);
  for (const t of traces) expect(readFileSync(join(records, t), 'utf8')).not.toContain(value);
}
