import { lazyActions } from './lazyActions';
import type { SliceCreator } from './types';
import { FORK_ACTIONS, type ForkSlice } from './state/fork';
export type { ForkDelegationDraft, ForkDraft, ForkSlice } from './state/fork';
export { editedDelegations, replayedDelegations } from './forkDrafts';

// Forks in the sessions browser: the "Fork from here" form (from a task there, or a turn in the
// inspector), the opened session's family, and the side-by-side comparison of two runs.

export const createForkSlice: SliceCreator<ForkSlice> = (set, get, api) => {
  return {
    // Reading the recording, forking and comparing load on first use (forkActions.ts).
    ...lazyActions(FORK_ACTIONS, () => import('./forkActions').then((m) => m.createForkActions))(set, get, api),
    forkDraft: null,
    family: null,
    comparePick: null,
    comparison: null,
    editForkDraft({ delegation, ...patch }) {
      set((s) => {
        const d = s.forkDraft;
        if (!d) return {};
        const delegations =
          delegation && d.delegations
            ? d.delegations.map((x) => (x.callId === delegation.callId ? { ...x, text: delegation.text } : x))
            : d.delegations;
        return { forkDraft: { ...d, ...patch, delegations } };
      });
    },
    closeForkForm() {
      set({ forkDraft: null });
    },
    pickForCompare(sessionId) {
      set({ comparePick: sessionId });
    },
    closeComparison() {
      set({ comparison: null });
    },
  };
};
