import { describe, expect, it } from 'vitest';
import type { BreakpointsView } from '../../src-shared/contract';
import { emptyBatch, foldBatch } from './fold';
import { useStudio } from './index';
import { edgeKey, hasBreakpoint, marksOf } from './breakpointsSlice';

// What the canvas draws of breakpoints: a mark per node and edge with one set, and the count of
// tasks paused there, folded from breakpoints.changed.

const view: BreakpointsView = {
  breakpoints: [
    { kind: 'turn', capsuleId: 'writer', id: 'turn:writer' },
    { kind: 'edge', from: 'coordinator', to: 'writer', id: 'edge:coordinator→writer' },
  ],
  paused: [
    {
      sessionId: 'ses_1',
      capsuleId: 'coordinator',
      taskId: 'tsk_1',
      point: 'edge',
      to: 'writer',
      target: 'writer',
      text: 'Draft it.',
      editable: true,
      since: '2026-01-01T00:00:00.000Z',
      timeoutMs: 600_000,
    },
    {
      sessionId: 'ses_2',
      capsuleId: 'writer',
      taskId: 'tsk_2',
      point: 'turn',
      turn: 1,
      text: 'Draft it.',
      editable: true,
      since: '2026-01-01T00:00:00.000Z',
      timeoutMs: 600_000,
    },
  ],
  timeoutSeconds: 600,
};

describe('breakpoint marks', () => {
  it('marks nodes and edges with a breakpoint and counts the tasks paused at each', () => {
    const marks = marksOf(view);
    expect(marks.nodes).toEqual({ writer: { set: true, paused: 1 }, coordinator: { set: false, paused: 1 } });
    expect(marks.edges).toEqual({ [edgeKey('coordinator', 'writer')]: { set: true, paused: 1 } });
    expect(hasBreakpoint(view, { kind: 'edge', from: 'coordinator', to: 'writer' })).toBe(true);
    expect(hasBreakpoint(view, { kind: 'turn', capsuleId: 'coordinator' })).toBe(false);
  });

  it('folds the latest breakpoints.changed of a frame into the view and its marks', () => {
    const batch = { ...emptyBatch(), breakpoints: view };
    const next = foldBatch(useStudio.getState(), batch);
    expect(next.breakpoints).toBe(view);
    expect(next.breakpointMarks?.nodes.writer).toEqual({ set: true, paused: 1 });
    // A frame without one leaves them alone.
    expect(foldBatch(useStudio.getState(), emptyBatch()).breakpoints).toBeUndefined();
  });
});
