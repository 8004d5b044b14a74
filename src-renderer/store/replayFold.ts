import type { ReplayRun, ReplayStep } from '../../src-shared/contract';
import type { Task } from '../../src-shared/a2a';
import { foldActivity, foldEdgeFlow, type FlowBase } from './flowSlice';
import type { ReplayFlow } from './state/replay';
export type { ReplayFlow } from './state/replay';

// A recorded run's steps folded into what the canvas draws, by the same folds the live
// delegation.updated / task.progressed / task.updated events go through. Pure.

export const EMPTY_FLOW: ReplayFlow = { edgeFlow: {}, activity: {} };

/** Recorded capsule name -> the canvas capsule of that name; the recorded ones the canvas lacks. */
export function capsulesOnCanvas(
  f: Pick<FlowBase, 'capsules'>,
  run: Pick<ReplayRun, 'capsules'>,
): { ids: Record<string, string>; missing: string[] } {
  const byName = new Map(Object.values(f.capsules).map((c) => [c.name, c.id]));
  const ids: Record<string, string> = {};
  const missing: string[] = [];
  for (const c of run.capsules) {
    const id = byName.get(c.capsule);
    if (id) ids[c.capsule] = id;
    else missing.push(c.capsule);
  }
  return { ids, missing };
}

/** A task as task.updated would carry it, from a recorded state (its text as the status message). */
function taskOf(t: NonNullable<ReplayStep['task']>): Task {
  return {
    id: t.taskId,
    status: {
      state: t.state,
      ...(t.text
        ? { message: { messageId: `replay-${t.taskId}`, role: 'ROLE_AGENT', parts: [{ text: t.text }] } }
        : {}),
    },
  };
}

/** The flow after one more step. */
export function applyStep(
  f: Omit<FlowBase, 'edgeFlow' | 'activity'>,
  flow: ReplayFlow,
  step: ReplayStep,
  capsuleId: string | undefined,
): ReplayFlow {
  if (!capsuleId) return flow;
  // Only what the folds read (the caller may pass the whole store: spreading it per step is slow).
  const base: FlowBase = {
    capsules: f.capsules,
    remotes: f.remotes,
    edgeViews: f.edgeViews,
    edgeFlow: flow.edgeFlow,
    activity: flow.activity,
  };
  const { sessionId } = step;
  const edges = step.delegations ? foldEdgeFlow(base, [{ sessionId, capsuleId, delegations: step.delegations }]) : {};
  const acts =
    step.progress || step.task
      ? foldActivity(
          base,
          step.progress ? [{ sessionId, capsuleId, tasks: [step.progress] }] : [],
          step.task ? [{ sessionId, capsuleId, task: taskOf(step.task) }] : [],
          [],
        )
      : {};
  if (!edges.edgeFlow && !acts.activity) return flow;
  return { edgeFlow: edges.edgeFlow ?? flow.edgeFlow, activity: acts.activity ?? flow.activity };
}

/** The flow after steps [from, to) on top of `flow` (from 0 on EMPTY_FLOW: the run as it stood after `to` steps). */
export function foldSteps(
  f: Omit<FlowBase, 'edgeFlow' | 'activity'>,
  run: Pick<ReplayRun, 'steps'>,
  ids: Record<string, string>,
  flow: ReplayFlow,
  from: number,
  to: number,
): ReplayFlow {
  let next = flow;
  for (let i = from; i < to && i < run.steps.length; i++)
    next = applyStep(f, next, run.steps[i], ids[run.steps[i].capsule]);
  return next;
}
