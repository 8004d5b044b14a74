import { isTerminal } from '../../src-shared/a2a';
import { LAST_OUTPUT_CHARS, lastTaskOf, type CapsuleView, type EventPayload } from '../../src-shared/contract';
import { edgeOf, endRunning, withHop, type EdgeFlow } from './flowModel';
import type { SliceCreator, StudioState } from './types';
import type { NodeActivity, FlowSlice } from './state/flow';
export type { NodeActivity, FlowSlice } from './state/flow';

// Work flowing through the canvas: each edge's delegations in flight and the marks of the latest
// run's failed and canceled hops, each capsule's current task (state, turn, streamed text) and its
// last output, and the task the inspector should show. Folded from delegation.updated,
// task.progressed and task.updated, never from raw trace lines (a client sees those only for the
// sessions it follows). The last output also comes with the capsule's record (`lastTask`, kept by
// the core), so a page that connects after the task ended draws it as the page that watched did.

/** The last output kept per capsule; the node shows less and expands to this. */
export const OUTPUT_CHARS = LAST_OUTPUT_CHARS;

/** A capsule's record as a batch brought it (capsule.stateChanged, a formation's capsule): what it answered last. */
export type LastTaskRecord = Pick<CapsuleView, 'id' | 'lastTask'>;

const sameLast = (a: NodeActivity['last'], b: NonNullable<NodeActivity['last']>) =>
  !!a && a.taskId === b.taskId && a.state === b.state && a.text === b.text;

/** What the flow folds read of the store: the formation drawn, and the flow so far. */
export type FlowBase = Pick<StudioState, 'capsules' | 'remotes' | 'edgeViews' | 'edgeFlow' | 'activity'>;

export function foldEdgeFlow(
  state: FlowBase,
  batches: EventPayload<'delegation.updated'>[],
  capsuleStates: EventPayload<'capsule.stateChanged'>[] = [],
): Partial<StudioState> {
  let edgeFlow: Record<string, EdgeFlow> | undefined;
  // A session that ended sends nothing more: what was still on its way from it ended with it.
  for (const c of capsuleStates) {
    if (c.state !== 'stopped' && c.state !== 'failed') continue;
    for (const e of state.edgeViews) {
      const flow = (edgeFlow ?? state.edgeFlow)[e.id];
      if (e.source !== c.id || !flow?.inFlight) continue;
      edgeFlow ??= { ...state.edgeFlow };
      edgeFlow[e.id] = endRunning(flow);
    }
  }
  for (const b of batches) {
    for (const d of b.delegations) {
      const edge = edgeOf(state, b.capsuleId, d);
      if (!edge) continue;
      edgeFlow ??= { ...state.edgeFlow };
      edgeFlow[edge.id] = withHop(edgeFlow[edge.id], d);
    }
  }
  return edgeFlow ? { edgeFlow } : {};
}

export function foldActivity(
  state: FlowBase,
  progress: EventPayload<'task.progressed'>[],
  tasks: EventPayload<'task.updated'>[],
  capsuleStates: EventPayload<'capsule.stateChanged'>[],
  records: readonly LastTaskRecord[] = [],
): Partial<StudioState> {
  if (!progress.length && !tasks.length && !capsuleStates.length && !records.length) return {};
  let activity: Record<string, NodeActivity> | undefined;
  const put = (id: string, f: (a: NodeActivity) => NodeActivity) => {
    if (!state.capsules[id]) return;
    const before = (activity ?? state.activity)[id];
    const after = f(before ?? {});
    if (after === before) return;
    activity ??= { ...state.activity };
    activity[id] = after;
  };
  // First what the core's records say each capsule answered last (they are never older than the
  // task events that came before them), then the events of this batch, newer still.
  for (const { id, lastTask: last } of records) {
    if (!last) continue;
    put(id, (a) => {
      if (sameLast(a.last, last)) return a;
      const current = a.current?.taskId === last.taskId ? undefined : a.current;
      return { ...(current ? { current } : {}), last };
    });
  }
  for (const p of progress) {
    for (const t of p.tasks) {
      put(p.capsuleId, (a) => {
        if (a.last?.taskId === t.taskId) return a; // a late progress of a task that ended
        const state = a.current?.taskId === t.taskId ? a.current.state : undefined;
        return {
          ...a,
          current: {
            taskId: t.taskId,
            turn: t.turn,
            text: t.text,
            ...(t.waiting ? { waiting: t.waiting } : {}),
            ...(state ? { state } : {}),
          },
        };
      });
    }
  }
  for (const u of tasks) {
    const s = u.task.status.state;
    put(u.capsuleId, (a) => {
      const last = lastTaskOf(u.task);
      if (last) {
        const current = a.current?.taskId === u.task.id ? undefined : a.current;
        return { ...(current ? { current } : {}), last };
      }
      if (a.last?.taskId === u.task.id && isTerminal(a.last.state)) return a;
      const cur = a.current?.taskId === u.task.id ? a.current : { taskId: u.task.id, turn: 0, text: '' };
      return { ...a, current: { ...cur, state: s } };
    });
  }
  // A session that ended has no current task (its last output stays).
  for (const c of capsuleStates)
    if (c.state === 'stopped' || c.state === 'failed')
      put(c.id, (a) => (a.current ? { ...(a.last ? { last: a.last } : {}) } : a));
  return activity ? { activity } : {};
}

export const createFlowSlice: SliceCreator<FlowSlice> = () => ({
  edgeFlow: {},
  activity: {},
});
