import type { DelegationPhase } from '../store';

// How a delegation's phase (store/phase.ts `delegationPhase`) reads, in every view that lists
// delegations: the console's entries and the task details' Delegations and Turns.

/** A delegation's state beside its target ("→ writer  paused before sending (breakpoint)"). */
export const DELEGATION_LABEL: Record<DelegationPhase, string> = {
  running: 'working…',
  paused: 'paused before sending (breakpoint)',
  answered: 'answered',
  failed: 'failed',
  canceled: 'canceled',
};

/** The same state in one word, for a count ("1 answered, 1 paused"). */
export const DELEGATION_WORD: Record<DelegationPhase, string> = {
  running: 'working',
  paused: 'paused',
  answered: 'answered',
  failed: 'failed',
  canceled: 'canceled',
};
