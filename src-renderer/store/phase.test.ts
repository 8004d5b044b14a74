import { describe, expect, it } from 'vitest';
import type { BreakpointsView, CapsuleView } from '../../src-shared/contract';
import { edgeKey, marksOf } from './breakpointsSlice';
import { canvasPhase, capsulePhase, delegationPhase, edgeInFlight, taskPhase } from './phase';

// One record (the core's breakpoints view) decides "paused" for every view: the capsule, its task,
// the delegation waiting on an edge, and what the edge counts as in flight.

const capsule = (id: string, state: CapsuleView['state']) => ({ id, name: id, state }) as CapsuleView;
const paused: BreakpointsView = {
  breakpoints: [{ kind: 'edge', from: 'coordinator', to: 'writer', id: 'edge:coordinator→writer' }],
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
  ],
  timeoutSeconds: 600,
};
const facts = (view: BreakpointsView) => ({
  capsules: {
    coordinator: capsule('coordinator', 'idle'),
    writer: capsule('writer', 'idle'),
    gone: capsule('gone', 'stopped'),
  },
  breakpointMarks: marksOf(view),
});
const none: BreakpointsView = { ...paused, paused: [] };

describe('phase', () => {
  it('a capsule with a paused task is paused; others keep the core state', () => {
    expect(capsulePhase(facts(paused), 'coordinator')).toBe('paused');
    expect(capsulePhase(facts(paused), 'writer')).toBe('idle');
    expect(capsulePhase(facts(none), 'coordinator')).toBe('idle');
    expect(capsulePhase(facts(paused), 'gone')).toBe('stopped');
    expect(capsulePhase(facts(paused), 'nobody')).toBeUndefined();
  });

  it('a paused task reads paused until it ends; an ended one keeps its end state', () => {
    expect(taskPhase(facts(paused), 'tsk_1', 'TASK_STATE_WORKING')).toBe('paused');
    expect(taskPhase(facts(paused), 'tsk_1', 'TASK_STATE_CANCELED')).toBe('TASK_STATE_CANCELED');
    expect(taskPhase(facts(paused), 'tsk_2', 'TASK_STATE_WORKING')).toBe('TASK_STATE_WORKING');
  });

  it('only the delegation waiting at the edge is paused, by name or by the capsule that took it', () => {
    const s = facts(paused);
    expect(delegationPhase(s, 'tsk_1', { state: 'running', to: 'writer' })).toBe('paused');
    expect(delegationPhase(s, 'tsk_1', { state: 'running', to: 'http://127.0.0.1:9/', capsule: 'writer' })).toBe(
      'paused',
    );
    expect(delegationPhase(s, 'tsk_1', { state: 'running', to: 'researcher' })).toBe('running');
    expect(delegationPhase(s, 'tsk_1', { state: 'answered', to: 'writer' })).toBe('answered');
    expect(delegationPhase(s, 'tsk_9', { state: 'running', to: 'writer' })).toBe('running');
  });

  it('a delegation paused before it is sent is not counted in flight on its edge', () => {
    const edgeFlow = { e1: { inFlight: 2 } } as never;
    expect(edgeInFlight({ edgeFlow, breakpointMarks: marksOf(paused) }, 'e1', edgeKey('coordinator', 'writer'))).toBe(
      1,
    );
    expect(edgeInFlight({ edgeFlow, breakpointMarks: marksOf(none) }, 'e1', edgeKey('coordinator', 'writer'))).toBe(2);
    expect(
      edgeInFlight({ edgeFlow: {}, breakpointMarks: marksOf(paused) }, 'e1', edgeKey('coordinator', 'writer')),
    ).toBe(0);
  });

  it('during a replay the canvas phase is the recording: busy while a recorded task runs there, idle between, absent when not in the run', () => {
    const live = { ...facts(paused), replay: null, activity: {} };
    expect(canvasPhase(live, 'coordinator')).toBe('paused');
    const replay = { ids: { coordinator: 'coordinator', writer: 'writer' } } as never;
    const replaying = {
      ...facts(paused),
      replay,
      activity: { coordinator: { current: { taskId: 'tsk_r', turn: 1, text: '' } } },
    };
    expect(canvasPhase(replaying, 'coordinator')).toBe('busy');
    expect(canvasPhase(replaying, 'writer')).toBe('idle');
    expect(canvasPhase(replaying, 'gone')).toBe('absent');
    expect(canvasPhase(replaying, 'nobody')).toBeUndefined();
  });
});
