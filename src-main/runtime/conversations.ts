import type { Task } from '../../src-shared/a2a';
import type { ChatMessage } from '../drivers';
import { messageText } from './message-text';
import { RenewingMap } from './renewing-map';

// The conversation of each context, shared by its tasks. While a task of the context is live it
// is an array the agent loop appends to. Once none is, it is shelved: as the id of the one task
// whose question and answer are all of it (a few bytes: the task has them), or else as JSON, and
// only the newest KEEP_CONVERSATIONS of those stay. An older one is forgotten down to a mark and,
// if its context gets another task, rebuilt from its tasks' questions and answers (read back from
// the records like any old task): the tool calls between them are not kept that long. A rebuild
// that needs the records (a task memory no longer holds) is prepared off the main thread before
// the context's next task starts (prepare); take itself reads no file.

/** Conversations shelved as JSON: the newest 256 contexts, and no more than 8 MiB of their JSON. */
export const KEEP_CONVERSATIONS = { contexts: 256, bytes: 8 * 1024 * 1024 };

const FORGOTTEN = '#';

/** What a conversation is rebuilt from: the session's tasks. */
export interface ConversationTasks {
  /** Whether memory holds the task whole (peek answers it). */
  holds(id: string): boolean;
  /** A task memory holds; undefined for an older one. Reads no file. */
  peek(id: string): Task | undefined;
  /** Any task, an older one read from the records off the main thread. */
  read(id: string): Promise<Task | undefined>;
  /** Ids of the finished tasks of a context, oldest first. */
  finishedOf(contextId: string): string[];
}

const jsonBytes = (s: string) => (/[\u0100-\uffff]/.test(s) ? 2 : 1) * s.length;

/** Questions and answers of one finished task, as the model would have seen them. */
function turnsOf(t: Task | undefined): ChatMessage[] {
  if (!t) return [];
  const out: ChatMessage[] = [];
  for (const m of t.history ?? [])
    out.push({ role: m.role === 'ROLE_AGENT' ? 'assistant' : 'user', content: messageText(m) });
  const answer = t.artifacts?.find((a) => a.artifactId === 'response')?.parts[0]?.text;
  if (answer !== undefined) out.push({ role: 'assistant', content: answer });
  return out;
}

export function createConversations(tasks: ConversationTasks, keep = KEEP_CONVERSATIONS) {
  const held = new Map<string, ChatMessage[] | string>();
  /** Conversations prepare() rebuilt from the records, with the shelved mark they stand for, for take. */
  const rebuilt = new Map<string, { from: string; conv: ChatMessage[] }>();
  /** The tasks a shelved mark is rebuilt from: its one task, or every finished task of a forgotten context. */
  const sourcesOf = (contextId: string, h: string) => (h === FORGOTTEN ? tasks.finishedOf(contextId) : [h]);
  const isMark = (h: ChatMessage[] | string | undefined): h is string => typeof h === 'string' && !h.startsWith('[');
  /** Contexts shelved as JSON, oldest first, with what each costs. */
  const shelved = new RenewingMap<string, number>();
  let shelvedBytes = 0;

  const unshelve = (contextId: string) => {
    const bytes = shelved.get(contextId);
    if (bytes === undefined) return;
    shelved.delete(contextId);
    shelvedBytes -= bytes;
  };

  return {
    /**
     * Before a context's task starts: the conversation's rebuild when it needs tasks memory no longer
     * holds, read off the main thread (undefined when take can do without: the common case).
     */
    prepare(contextId: string): Promise<void> | undefined {
      const h = held.get(contextId);
      if (!isMark(h) || rebuilt.get(contextId)?.from === h) return undefined;
      const ids = sourcesOf(contextId, h);
      if (ids.every((id) => tasks.holds(id))) return undefined;
      return (async () => {
        const conv: ChatMessage[] = [];
        for (const id of ids) conv.push(...turnsOf(await tasks.read(id)));
        rebuilt.set(contextId, { from: h, conv });
      })();
    },
    /** A prepared rebuild no task took (its task was canceled while it was read). */
    drop(contextId: string) {
      rebuilt.delete(contextId);
    },
    /** The conversation of a context, ready to be appended to (prepared first when it needs the records). */
    take(contextId: string): ChatMessage[] {
      const h = held.get(contextId);
      let conv: ChatMessage[];
      if (typeof h !== 'string') conv = h ?? [];
      else if (h.startsWith('[')) conv = JSON.parse(h) as ChatMessage[];
      else {
        const prepared = rebuilt.get(contextId);
        rebuilt.delete(contextId);
        conv = prepared?.from === h ? prepared.conv : sourcesOf(contextId, h).flatMap((id) => turnsOf(tasks.peek(id)));
      }
      unshelve(contextId);
      held.set(contextId, conv);
      return conv;
    },
    /** Shelves a context's conversation once its last live task ended (`text` and `answer` are that task's). */
    shelve(contextId: string, taskId: string, text: string, answer: string | undefined) {
      const conv = held.get(contextId);
      if (!Array.isArray(conv)) return;
      const plain =
        conv.length === 2 &&
        conv[0].role === 'user' &&
        conv[0].content === text &&
        conv[1].role === 'assistant' &&
        conv[1].content === answer &&
        !conv[1].toolCalls;
      if (plain) return void held.set(contextId, taskId);
      const json = JSON.stringify(conv);
      const bytes = jsonBytes(json);
      held.set(contextId, json);
      shelved.set(contextId, bytes);
      shelvedBytes += bytes;
      while (shelved.size > keep.contexts || shelvedBytes > keep.bytes) {
        const oldest = shelved.keys().next().value as string;
        unshelve(oldest);
        held.set(oldest, FORGOTTEN);
      }
    },
  };
}

export type Conversations = ReturnType<typeof createConversations>;
