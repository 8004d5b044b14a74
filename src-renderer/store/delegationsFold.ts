import type { EventPayload } from '../../src-shared/contract';
import type { StudioState } from './types';
import type { DelegationOutcome } from './state/delegations';
export type { DelegationOutcome } from './state/delegations';

// Each delegation a task made, as the console shows it under the task: who it went to and how it
// ended. Folded from delegation.updated (the core's compact event, sent to every client), so
// nothing scans a trace when the console renders and no client needs to follow a session's trace.

/** Tasks whose delegations are kept (the console keeps 50 entries; a burst of peers' tasks is dropped first). */
const MAX_TASKS = 200;
/** Delegations kept per task (delegate_task "*" expands to at most 32 per call). */
const MAX_PER_TASK = 64;

export function foldDelegations(
  state: StudioState,
  batches: EventPayload<'delegation.updated'>[],
): Partial<StudioState> {
  let next: Record<string, DelegationOutcome[]> | undefined;
  for (const b of batches) {
    for (const d of b.delegations) {
      next ??= { ...state.delegations };
      const list = [...(next[d.taskId] ?? [])];
      const i = list.findIndex((x) => x.callId === d.callId);
      const outcome: DelegationOutcome = {
        callId: d.callId,
        to: d.to,
        state: d.state,
        ...(d.text !== undefined ? { text: d.text } : {}),
        ...(d.capsule ? { capsule: d.capsule } : {}),
        ...(d.childTaskId ? { childTaskId: d.childTaskId } : {}),
      };
      if (i >= 0) list[i] = outcome;
      else if (list.length < MAX_PER_TASK) list.push(outcome);
      // Re-inserted so the newest tasks are the last keys, and the oldest go first.
      delete next[d.taskId];
      next[d.taskId] = list;
    }
  }
  if (!next) return {};
  const ids = Object.keys(next);
  if (ids.length > MAX_TASKS) for (const id of ids.slice(0, ids.length - MAX_TASKS)) delete next[id];
  return { delegations: next };
}
