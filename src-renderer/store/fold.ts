import type { EventPayload, FormationChange } from '../../src-shared/contract';
import { foldCapsuleStates, foldFormationChange } from './formationFold';
import { deriveFlow } from './graphModel';
import { foldManifestConflicts, foldManifestFromFormation } from './manifestSlice';
import { foldTaskUpdates } from './tasksSlice';
import { foldTraceAppends } from './tracesSlice';
import { foldDelegations } from './delegationsFold';
import { foldActivity, foldEdgeFlow, type LastTaskRecord } from './flowSlice';
import type { StudioState } from './types';
import { withMarks } from './breakpointsSlice';
import { foldToolCalls } from './toolServersSlice';

/** Core events gathered during one animation frame. */
export interface EventBatch {
  /** formation.changed in order; `after`: how many of capsuleStates arrived before it (they fold in arrival order). */
  formations: { change: FormationChange; after: number }[];
  capsuleStates: EventPayload<'capsule.stateChanged'>[];
  tasks: EventPayload<'task.updated'>[];
  traces: EventPayload<'trace.appended'>[];
  delegations: EventPayload<'delegation.updated'>[];
  progress: EventPayload<'task.progressed'>[];
  toolCalls: EventPayload<'mcp.called'>[];
  conflicts: EventPayload<'manifest.conflicted'>[];
  notices: EventPayload<'notice.raised'>[];
  /** The latest breakpoints.changed of the frame (each carries the whole view). */
  breakpoints?: EventPayload<'breakpoints.changed'>;
}

export const emptyBatch = (): EventBatch => ({
  formations: [],
  capsuleStates: [],
  tasks: [],
  traces: [],
  delegations: [],
  progress: [],
  toolCalls: [],
  conflicts: [],
  notices: [],
});

/**
 * The capsule records a batch brought, in the order they came (capsule.stateChanged, the capsules
 * of a formation view or change): what each says its capsule answered last.
 */
export function lastTaskRecords(batch: Pick<EventBatch, 'formations' | 'capsuleStates'>): LastTaskRecord[] {
  const out: LastTaskRecord[] = [];
  let states = 0;
  for (const { change, after } of batch.formations) {
    out.push(...batch.capsuleStates.slice(states, after));
    states = Math.max(states, after);
    const c = change.full?.capsules ?? [
      ...(change.capsules?.added ?? []),
      ...(change.capsules?.updated ?? []).map((u) => ({ id: u.id, lastTask: u.set.lastTask })),
    ];
    out.push(...c);
  }
  out.push(...batch.capsuleStates.slice(states));
  return out.filter((r) => r.lastTask);
}

/** During a replay the canvas shows the recording: live flow folds into what the replay keeps aside. */
function foldLiveAside(s: StudioState, batch: EventBatch): Partial<StudioState> {
  const r = s.replay!;
  const base = { ...s, ...r.live };
  const edges = foldEdgeFlow(base, batch.delegations, batch.capsuleStates);
  const acts = foldActivity(
    { ...base, ...edges },
    batch.progress,
    batch.tasks,
    batch.capsuleStates,
    lastTaskRecords(batch),
  );
  if (!edges.edgeFlow && !acts.activity) return {};
  return {
    replay: { ...r, live: { edgeFlow: edges.edgeFlow ?? r.live.edgeFlow, activity: acts.activity ?? r.live.activity } },
  };
}

/**
 * Folds one batch of core events into the state as one update (pure: returns the changed keys),
 * so a burst causes one render per subscribed component, not one per event.
 */
export function foldBatch(s: StudioState, batch: EventBatch): Partial<StudioState> {
  let next: StudioState = s;
  const merge = (p: Partial<StudioState>) => {
    if (Object.keys(p).length > 0) next = { ...next, ...p };
  };
  let states = 0;
  for (const { change, after } of batch.formations) {
    merge(foldCapsuleStates(next, batch.capsuleStates.slice(states, after)));
    states = Math.max(states, after);
    // Another workspace: what the old one had to say no longer applies to what is on screen.
    if (next.workspace && next.workspace.dir !== change.dir && next.notices.length) merge({ notices: [] });
    // Its edges and nodes carried other work.
    if (next.workspace && next.workspace.dir !== change.dir)
      merge({ edgeFlow: {}, activity: {}, ...(next.replay ? { replay: null } : {}) });
    const folded = foldFormationChange(next, change);
    if (folded.capsules) merge(foldManifestFromFormation(next, { capsules: folded.capsules }));
    merge(folded);
  }
  merge(foldCapsuleStates(next, batch.capsuleStates.slice(states)));
  if (batch.formations.length > 0 || batch.capsuleStates.length > 0) merge(deriveFlow(next));
  merge(foldTaskUpdates(next, batch.tasks));
  merge(foldTraceAppends(next, batch.traces));
  merge(foldDelegations(next, batch.delegations));
  merge(foldToolCalls(next, batch.toolCalls));
  if (next.replay) merge(foldLiveAside(next, batch));
  else {
    merge(foldEdgeFlow(next, batch.delegations, batch.capsuleStates));
    merge(foldActivity(next, batch.progress, batch.tasks, batch.capsuleStates, lastTaskRecords(batch)));
  }
  merge(foldManifestConflicts(next, batch.conflicts));
  if (batch.breakpoints) merge(withMarks(batch.breakpoints));
  return next === s ? {} : next;
}
