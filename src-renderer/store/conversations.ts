import type { TaskState } from '../../src-shared/a2a';
import { MAX_CONSOLE_ENTRIES, MAX_CONVERSATIONS } from '../../src-shared/contract';

// The console's conversations as plain data and pure functions over it: a conversation is the
// messages sent to one capsule in one A2A context (its contextId comes with the first task's
// answer), the way a chat-style agent tool keeps a thread. Bounded: MAX_ENTRIES messages per
// workspace, MAX_CONVERSATIONS per capsule; the oldest go first. The core keeps them with the
// workspace (keep.ts), under the same bounds.

/** One message the user sent from the console; the task itself lives in the tasks slice. */
export interface ConsoleEntry {
  key: number;
  /** The workspace it was sent in: each workspace keeps its own console history. */
  dir: string;
  capsuleId: string;
  /** The conversation it belongs to (Conversation.id). */
  conversation: number;
  text: string;
  /** The data part as sent (JSON text). */
  data?: string;
  /** The files that went with it. */
  files?: { name: string; size: number }[];
  taskId?: string;
  /** The session that ran the task (its trace holds the task's delegations, read again after a reload). */
  sessionId?: string;
  error?: string;
  /**
   * How its task stood when the conversation was kept, and its answer (cut):
   * shown after a reload or a restart, when the task itself is no longer in view.
   */
  state?: TaskState;
  answer?: string;
}

/** One thread with a capsule: the Studio's id for it, and the A2A contextId once the door gave one. */
export interface Conversation {
  id: number;
  dir: string;
  capsuleId: string;
  contextId?: string;
}

export const MAX_ENTRIES = MAX_CONSOLE_ENTRIES;
export { MAX_CONVERSATIONS };

/** The key of a capsule's open conversation in consoleCurrent. */
export const conversationKey = (dir: string, capsuleId: string) => `${dir}\0${capsuleId}`;

/** The entries of one workspace, oldest first. */
export const entriesOf = (entries: ConsoleEntry[], dir: string | undefined) => entries.filter((e) => e.dir === dir);

/** The messages of one conversation, oldest first. */
export const entriesOfConversation = (entries: ConsoleEntry[], conversation: number | undefined) =>
  conversation === undefined ? [] : entries.filter((e) => e.conversation === conversation);

/** A capsule's conversations in a workspace, oldest first. */
export const conversationsOf = (all: Conversation[], dir: string | undefined, capsuleId: string | null) =>
  all.filter((c) => c.dir === dir && c.capsuleId === capsuleId);

/** Adds an entry; past MAX_ENTRIES in its workspace the oldest is dropped. */
export function addEntry(entries: ConsoleEntry[], entry: ConsoleEntry): ConsoleEntry[] {
  const mine = entriesOf(entries, entry.dir);
  const drop = mine.length >= MAX_ENTRIES ? mine[0].key : undefined;
  return [...entries.filter((e) => e.key !== drop), entry];
}

/** Before `next` is added: past MAX_CONVERSATIONS for its capsule, the oldest goes, with its messages. */
export function dropConversation(
  conversations: Conversation[],
  entries: ConsoleEntry[],
  next: Conversation,
): { conversations: Conversation[]; entries: ConsoleEntry[] } {
  const mine = conversationsOf(conversations, next.dir, next.capsuleId);
  if (mine.length < MAX_CONVERSATIONS) return { conversations, entries };
  const oldest = mine[0].id;
  return {
    conversations: conversations.filter((c) => c.id !== oldest),
    entries: entries.filter((e) => e.conversation !== oldest),
  };
}
