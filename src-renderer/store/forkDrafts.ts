import type { ForkDelegationDraft, ForkDraft } from './state/fork';

/** The delegations the fork replays (turns before its turn). */
export const replayedDelegations = (d: ForkDraft): ForkDelegationDraft[] =>
  (d.delegations ?? []).filter((x) => x.turn < d.turn);
/** The replayed delegations whose text was edited in the form. */
export const editedDelegations = (d: ForkDraft): ForkDelegationDraft[] =>
  replayedDelegations(d).filter((x) => x.text !== x.recorded);
