import type { TimelineBar } from '../../../../src-shared/contract';

// Orders timeline bars so every task sits under the task that caused it (depth-first, by start
// time), and maps times onto the shared axis. Pure: the view only draws what this returns.

export interface LaidBar {
  bar: TimelineBar;
  depth: number;
  /** Row index of the parent bar, when its cause is on the timeline. */
  parentRow: number | null;
  /** Left edge and width as fractions of the axis (0..1). */
  x: number;
  w: number;
}

export interface TimelineLayout {
  rows: LaidBar[];
  start: number;
  end: number;
}

export function layoutTimeline(bars: TimelineBar[]): TimelineLayout {
  if (!bars.length) return { rows: [], start: 0, end: 0 };
  const start = Math.min(...bars.map((b) => b.start));
  const end = Math.max(start + 1, ...bars.map((b) => b.end));
  const span = end - start;
  const byId = new Map(bars.map((b) => [b.taskId, b]));
  const children = new Map<string, TimelineBar[]>();
  const roots: TimelineBar[] = [];
  for (const b of bars) {
    const parent = b.parentTaskId && b.parentTaskId !== b.taskId ? byId.get(b.parentTaskId) : undefined;
    if (parent) children.set(parent.taskId, [...(children.get(parent.taskId) ?? []), b]);
    else roots.push(b);
  }
  const rows: LaidBar[] = [];
  const seen = new Set<string>();
  const visit = (b: TimelineBar, depth: number, parentRow: number | null) => {
    if (seen.has(b.taskId)) return; // a cycle in bad data never loops
    seen.add(b.taskId);
    const row = rows.length;
    // A bar is at least a sliver wide, so an instant task stays visible and clickable.
    rows.push({ bar: b, depth, parentRow, x: (b.start - start) / span, w: Math.max(0.004, (b.end - b.start) / span) });
    for (const c of (children.get(b.taskId) ?? []).sort((p, q) => p.start - q.start)) visit(c, depth + 1, row);
  };
  for (const r of roots.sort((p, q) => p.start - q.start)) visit(r, 0, null);
  // Tasks caught in a cycle of causes (bad data) still show, as roots.
  for (const b of bars) if (!seen.has(b.taskId)) visit(b, 0, null);
  return { rows, start, end };
}

/** "1.2 s", "340 ms", "2 min 5 s". */
export function formatSpan(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
