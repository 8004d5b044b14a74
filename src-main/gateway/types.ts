import type { AgentCard } from '../../src-shared/a2a';
import type { Session } from '../runtime/api';

/** What the gateway needs to know about a running capsule, by name. */
export interface ResolvedCapsule {
  /** The door's JSON-RPC URL (loopback). */
  url: string;
  /** The door's card. */
  card: AgentCard;
  /** The manifest's `accepts` input contract, when declared. */
  accepts?: Record<string, unknown>;
  /** The manifest's `responds` output contract, when declared (the MCP tool's output schema). */
  responds?: Record<string, unknown>;
  /**
   * The session itself when it runs in this process: the MCP endpoint starts and cancels its tasks
   * in process, through the door's method table, instead of over HTTP to its own door.
   */
  session?: Session;
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
