import { describe, expect, it } from 'vitest';
import type { TimelineBar } from '../../../../src-shared/contract';
import { formatSpan, layoutTimeline } from './timelineLayout';

const bar = (taskId: string, start: number, end: number, parentTaskId?: string): TimelineBar => ({
  sessionId: 'ses_x',
  capsule: taskId.startsWith('o') ? 'coordinator' : 'worker',
  taskId,
  start,
  end,
  open: false,
  state: 'TASK_STATE_COMPLETED',
  text: null,
  ...(parentTaskId ? { parentTaskId } : {}),
});

describe('timeline layout', () => {
  it('puts each worker task under the orchestrator task that caused it, on one axis', () => {
    const { rows, start, end } = layoutTimeline([
      bar('w2', 1500, 1800, 'o1'),
      bar('o2', 1200, 1300),
      bar('o1', 1000, 2000),
      bar('w1', 1100, 1400, 'o1'),
    ]);
    expect(rows.map((r) => [r.bar.taskId, r.depth, r.parentRow])).toEqual([
      ['o1', 0, null],
      ['w1', 1, 0],
      ['w2', 1, 0],
      ['o2', 0, null],
    ]);
    expect([start, end]).toEqual([1000, 2000]);
    expect(rows[1].x).toBeCloseTo(0.1);
    expect(rows[1].w).toBeCloseTo(0.3);
  });

  it('survives a cause that is missing or a cycle', () => {
    const { rows } = layoutTimeline([bar('a', 0, 10, 'b'), bar('b', 0, 10, 'a'), bar('c', 5, 5, 'gone')]);
    expect(rows.map((r) => r.bar.taskId).sort()).toEqual(['a', 'b', 'c']);
    expect(rows.find((r) => r.bar.taskId === 'c')!.w).toBeGreaterThan(0);
  });

  it('formats spans', () => {
    expect([formatSpan(340), formatSpan(1234), formatSpan(125_000)]).toEqual(['340 ms', '1.2 s', '2 min 5 s']);
  });
});
