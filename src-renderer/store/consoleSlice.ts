import { isTerminal } from '../../src-shared/a2a';
import type { DataProblem } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import type { SliceCreator } from './types';
import { addEntry, conversationKey, dropConversation, type Conversation, type ConsoleEntry } from './conversations';

export type { Conversation, ConsoleEntry } from './conversations';
import type { Outgoing, SendOutcome, ConsoleSlice } from './state/console';
export type { Outgoing, SendOutcome, ConsoleSlice } from './state/console';
export { conversationKey, conversationsOf, entriesOf, entriesOfConversation } from './conversations';

let nextKey = 1;
/** The most tasks one catch-up reads. */
const MAX_CATCH_UP = 50;
let nextConversation = 1;
/** Sends of one conversation go out one after the other: a follow-up needs the contextId the first task got. */
const chains = new Map<number, Promise<unknown>>();

export const createConsoleSlice: SliceCreator<ConsoleSlice> = (set, get) => {
  const patch = (key: number, p: Partial<ConsoleEntry>) =>
    set((s) => ({ consoleEntries: s.consoleEntries.map((e) => (e.key === key ? { ...e, ...p } : e)) }));

  /** The open conversation of the capsule, made when the first message of a new one goes out. */
  const currentConversation = (dir: string, capsuleId: string): Conversation => {
    const key = conversationKey(dir, capsuleId);
    const s = get();
    const open = s.consoleConversations.find((c) => c.id === s.consoleCurrent[key]);
    if (open) return open;
    const made: Conversation = { id: nextConversation++, dir, capsuleId };
    set((st) => {
      const { conversations, entries } = dropConversation(st.consoleConversations, st.consoleEntries, made);
      return {
        consoleConversations: [...conversations, made],
        consoleEntries: entries,
        consoleCurrent: { ...st.consoleCurrent, [key]: made.id },
      };
    });
    return made;
  };

  async function send(key: number, conversation: number, capsuleId: string, m: Outgoing): Promise<SendOutcome> {
    const contextId = get().consoleConversations.find((c) => c.id === conversation)?.contextId;
    try {
      const files = m.files?.map(({ name, mediaType, bytes }) => ({
        name,
        bytes,
        ...(mediaType ? { mediaType } : {}),
      }));
      const task = await invoke('task.send', {
        capsuleId,
        ...(m.text.trim() ? { text: m.text } : {}),
        ...(m.data !== undefined ? { data: m.data } : {}),
        ...(files?.length ? { files } : {}),
        ...(contextId ? { contextId } : {}),
        returnImmediately: true,
      });
      // Progress, the end and the answer arrive as task.updated; an event may already be here.
      set((s) => ({
        tasks: { ...s.tasks, [task.id]: s.tasks[task.id] ?? { capsuleId, task } },
        consoleConversations: s.consoleConversations.map((c) =>
          c.id === conversation && !c.contextId ? { ...c, contextId: task.contextId } : c,
        ),
      }));
      // The capsule's running session took the task: its trace tells the task's flow, whatever happens to the session.
      const sessionId = get().capsules[capsuleId]?.sessionId;
      patch(key, { taskId: task.id, ...(sessionId ? { sessionId } : {}) });
      return { ok: true };
    } catch (err) {
      const error = describeError(err);
      const problems = (err as { details?: { problems?: DataProblem[] } }).details?.problems;
      patch(key, { error });
      return { ok: false, error, ...(problems ? { problems } : {}) };
    }
  }

  return {
    consoleTarget: null,
    consoleEntries: [],
    consoleConversations: [],
    consoleCurrent: {},
    delegations: {},
    setConsoleTarget(id) {
      set({ consoleTarget: id });
    },
    async sendMessage(message) {
      const m: Outgoing = typeof message === 'string' ? { text: message } : message;
      const capsuleId = get().consoleTarget;
      if (!capsuleId || (!m.text.trim() && m.data === undefined && !m.files?.length))
        return { ok: false, error: 'Nothing to send.' };
      const dir = get().workspace?.dir ?? '';
      const conversation = currentConversation(dir, capsuleId).id;
      const key = nextKey++;
      const entry: ConsoleEntry = {
        key,
        dir,
        capsuleId,
        conversation,
        text: m.text.trim(),
        ...(m.data !== undefined ? { data: JSON.stringify(m.data) } : {}),
        ...(m.files?.length ? { files: m.files.map((f) => ({ name: f.name, size: f.size })) } : {}),
      };
      set((s) => ({ consoleEntries: addEntry(s.consoleEntries, entry) }));
      const before = chains.get(conversation) ?? Promise.resolve();
      const run = before.then(() => send(key, conversation, capsuleId, m));
      chains.set(conversation, run);
      const outcome = await run;
      if (chains.get(conversation) === run) chains.delete(conversation);
      return outcome;
    },
    newConversation(capsuleId) {
      const key = conversationKey(get().workspace?.dir ?? '', capsuleId);
      set((s) => {
        const { [key]: _left, ...rest } = s.consoleCurrent;
        return { consoleCurrent: rest };
      });
    },
    openConversation(capsuleId, id) {
      const key = conversationKey(get().workspace?.dir ?? '', capsuleId);
      if (get().consoleConversations.some((c) => c.id === id))
        set((s) => ({ consoleCurrent: { ...s.consoleCurrent, [key]: id } }));
    },
    async replyToTask(capsuleId, task, text) {
      try {
        // The task goes on; its new state arrives as task.updated.
        await invoke('task.send', {
          capsuleId,
          taskId: task.id,
          ...(task.contextId ? { contextId: task.contextId } : {}),
          text,
          returnImmediately: true,
        });
        return undefined;
      } catch (err) {
        return describeError(err);
      }
    },
    restoreConversations(dir, kept) {
      const s = get();
      if (s.consoleEntries.some((e) => e.dir === dir) || s.consoleConversations.some((c) => c.dir === dir)) return;
      const ids = new Map(kept.conversations.map((c) => [c.id, nextConversation++]));
      const conversations: Conversation[] = kept.conversations.map((c) => ({ ...c, id: ids.get(c.id)!, dir }));
      const entries: ConsoleEntry[] = kept.entries
        .filter((e) => ids.has(e.conversation))
        .map((e) => ({ ...e, key: nextKey++, dir, conversation: ids.get(e.conversation)! }));
      const current = Object.fromEntries(
        Object.entries(kept.current).flatMap(([capsuleId, id]) =>
          ids.has(id) ? [[conversationKey(dir, capsuleId), ids.get(id)!]] : [],
        ),
      );
      set((st) => ({
        consoleConversations: [...st.consoleConversations, ...conversations],
        consoleEntries: [...st.consoleEntries, ...entries],
        consoleCurrent: { ...st.consoleCurrent, ...current },
      }));
    },
    async catchUpTasks() {
      const open = Object.values(get().tasks).filter(
        (r) => !isTerminal(r.task.status.state) && get().capsules[r.capsuleId],
      );
      await Promise.all(open.slice(-MAX_CATCH_UP).map((r) => get().refreshTask(r.capsuleId, r.task.id)));
    },
  };
};
