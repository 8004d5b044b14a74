import type { EventPayload, FormationView } from '../../src-shared/contract';
import { foldCapsuleStates, foldFormation } from './formationFold';
import { deriveFlow } from './graphModel';
import { foldManifestConflicts, foldManifestFromFormation } from './manifestSlice';
import { foldTaskUpdates } from './tasksSlice';
import { foldTraceAppends } from './tracesSlice';
import { foldDelegations } from './delegationsFold';
import { foldActivity, foldEdgeFlow } from './flowSlice';
import type { StudioState } from './types';

/** Core events gathered during one animation frame. */
export interface EventBatch {
  formation?: FormationView;
  capsuleStates: EventPayload<'capsule.stateChanged'>[];
  tasks: EventPayload<'task.updated'>[];
  traces: EventPayload<'trace.appended'>[];
  delegations: EventPayload<'delegation.updated'>[];
  progress: EventPayload<'task.progressed'>[];
  conflicts: EventPayload<'manifest.conflicted'>[];
  notices: EventPayload<'notice.raised'>[];
}

export const emptyBatch = (): EventBatch => ({ capsuleStates: [], tasks: [], traces: [], delegations: [], progress: [], conflicts: [], notices: [] });

/**
 * Folds one batch of core events into the state as one update (pure: returns the changed keys),
 * so a burst causes one render per subscribed component, not one per event.
 */
export function foldBatch(s: StudioState, batch: EventBatch): Partial<StudioState> {
  let next: StudioState = s;
  const merge = (p: Partial<StudioState>) => {
    if (Object.keys(p).length > 0) next = { ...next, ...p };
  };
  if (batch.formation) {
    // Another workspace: what the old one had to say no longer applies to what is on screen.
    if (next.workspace && next.workspace.dir !== batch.formation.dir && next.notices.length) merge({ notices: [] });
    // Its edges and nodes carried other work.
    if (next.workspace && next.workspace.dir !== batch.formation.dir) merge({ edgeFlow: {}, activity: {} });
    const folded = foldFormation(next, batch.formation);
    merge(foldManifestFromFormation(next, { capsules: folded.capsules ?? next.capsules }));
    merge(folded);
  }
  merge(foldCapsuleStates(next, batch.capsuleStates));
  if (batch.formation || batch.capsuleStates.length > 0) merge(deriveFlow(next));
  merge(foldTaskUpdates(next, batch.tasks));
  merge(foldTraceAppends(next, batch.traces));
  merge(foldDelegations(next, batch.delegations));
  merge(foldEdgeFlow(next, batch.delegations, batch.capsuleStates));
  merge(foldActivity(next, batch.progress, batch.tasks, batch.capsuleStates));
  merge(foldManifestConflicts(next, batch.conflicts));
  return next === s ? {} : next;
}
