import type { DelegationState } from '../../../src-shared/trace';

// A task's delegations as the console slice holds them (folded by delegationsFold.ts), below
// every slice file so the whole store's type (types.ts) needs no slice.

/** One delegate_task call of a task. */
export interface DelegationOutcome {
  callId: string;
  /** The capsule name or URL it went to. */
  to: string;
  state: DelegationState;
  /** The answer or the error, cut short by the core (TEXT_CHARS). */
  text?: string;
  /** The capsule it reached, by name, and the task it became there, once known. */
  capsule?: string;
  childTaskId?: string;
}
