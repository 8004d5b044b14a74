import type { Task } from '../../../src-shared/a2a';
import type { DataProblem, KeptConversations } from '../../../src-shared/contract';
import type { ConsoleEntry, Conversation } from '../conversations';
import type { DelegationOutcome } from './delegations';

// The shape of the store's console slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/** What goes with the text of one console message. */
export interface Outgoing {
  text: string;
  /** A JSON value, sent as a data part. */
  data?: unknown;
  /** Files as base64, with their decoded size (for the history). */
  files?: { name: string; mediaType?: string; bytes: string; size: number }[];
}

/** How a send ended: refused data comes back with its problems, for the data field. */
export type SendOutcome = { ok: true } | { ok: false; error: string; problems?: DataProblem[] };

export interface ConsoleSlice {
  consoleTarget: string | null;
  /** Every workspace's entries (at most MAX_ENTRIES each); the console shows the open conversation's. */
  consoleEntries: ConsoleEntry[];
  /** Every workspace's conversations (at most MAX_CONVERSATIONS per capsule), oldest first. */
  consoleConversations: Conversation[];
  /** The open conversation of each capsule (conversationKey), by id; absent: a new one starts with the next message. */
  consoleCurrent: Record<string, number>;
  /** Task id -> its delegations, from the trace (delegationsFold.ts). */
  delegations: Record<string, DelegationOutcome[]>;
  setConsoleTarget(id: string | null): void;
  /** Sends to the console's capsule, in its open conversation (its contextId once the first task has one). */
  sendMessage(message: Outgoing | string): Promise<SendOutcome>;
  /** The next message to this capsule starts another conversation (another contextId). */
  newConversation(capsuleId: string): void;
  /** Continues an earlier conversation of this capsule. */
  openConversation(capsuleId: string, id: number): void;
  /** Answers a task waiting for input: the message continues that task (same taskId and contextId). */
  replyToTask(capsuleId: string, task: Task, text: string): Promise<string | undefined>;
  /**
   * After the link to the core comes back: reads once each unfinished task the Studio shows, since
   * the task.updated events sent while it was down are lost (nothing is polled otherwise).
   */
  catchUpTasks(): Promise<void>;
  /**
   * A workspace's kept conversations (read from the core when it opens), unless this page already
   * holds some for it (those are as new or newer). Ids are renumbered: other workspaces' may clash.
   */
  restoreConversations(dir: string, kept: KeptConversations): void;
}
