import type { AgentCard } from '../../src-shared/a2a';

/** What the gateway needs to know about a running capsule, by name. */
export interface ResolvedCapsule {
  /** The door's JSON-RPC URL (loopback). */
  url: string;
  /** The door's card. */
  card: AgentCard;
  /** The manifest's `accepts` input contract, when declared. */
  accepts?: Record<string, unknown>;
  /** Description for the index card (defaults to the card's). */
  description?: string;
  /**
   * The door of the session that holds a task, when that is not `url`: a task still running on an
   * older published version is answered there. Undefined: the task is `url`'s (or nobody's).
   */
  doorOf?(taskId: string): string | undefined;
}

/** May answer asynchronously (a session started elsewhere, whose card is fetched from its door). */
export type ResolveCapsule = (name: string) => ResolvedCapsule | undefined | Promise<ResolvedCapsule | undefined>;
