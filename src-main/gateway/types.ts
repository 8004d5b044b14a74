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
   * The session itself when it runs in this process: the gateway calls it in process, through the
   * door's method table (A2A calls that do not stream, and the MCP endpoint's tasks), instead of
   * over HTTP to its own door.
   */
  session?: Session;
  /** Description for the index card (defaults to the card's). */
  description?: string;
  /**
   * The session of this process that holds a task: a task still running on an older published
   * version is answered there (in process, or at its door for a stream). Undefined: the task is
   * `session`'s (or nobody's). Only capsules with a `session` have it.
   */
  sessionOf?(taskId: string): Session | undefined;
}

/** May answer asynchronously (a session started elsewhere, whose card is fetched from its door). */
export type ResolveCapsule = (name: string) => ResolvedCapsule | undefined | Promise<ResolvedCapsule | undefined>;
