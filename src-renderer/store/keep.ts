import { isTerminal, type TaskState } from '../../src-shared/a2a';
import {
  CoreError,
  MAX_KEPT_TEXT,
  type KeptConversations,
  type KeptEntry,
  type PanelName,
} from '../../src-shared/contract';
import { invoke } from './client';
import { conversationKey, conversationsOf, entriesOf } from './conversations';
import { answerText } from './tasksSlice';
import type { StudioState } from './types';

// The user's work across reloads and restarts, kept by the core (see src-shared/contract/keep.ts):
// the open workspace's console conversations, saved a moment after they change and read back
// when a workspace opens; the capsule selected there and its details tab; the panel sizes. Runs beside the store,
// outside React, like the core event subscription.

/** Saves wait this long after a change: a burst of task updates is one write. */
export const SAVE_DELAY_MS = 400;

const clip = (text: string) => (text.length > MAX_KEPT_TEXT ? `${text.slice(0, MAX_KEPT_TEXT)}…` : text);

/** What of a workspace's console the core keeps: messages (with how each task stood, its answer cut), conversations, the open one per capsule. */
export function toKept(
  s: Pick<StudioState, 'consoleEntries' | 'consoleConversations' | 'consoleCurrent' | 'tasks'>,
  dir: string,
): KeptConversations {
  const conversations = s.consoleConversations
    .filter((c) => c.dir === dir)
    .map(({ id, capsuleId, contextId }) => ({ id, capsuleId, ...(contextId ? { contextId } : {}) }));
  const entries = entriesOf(s.consoleEntries, dir).map((e): KeptEntry => {
    const task = e.taskId ? s.tasks[e.taskId]?.task : undefined;
    const state = task?.status.state ?? e.state;
    const answer = task ? answerText(task) : e.answer;
    return {
      key: e.key,
      capsuleId: e.capsuleId,
      conversation: e.conversation,
      text: clip(e.text),
      ...(e.data !== undefined ? { data: clip(e.data) } : {}),
      ...(e.files?.length ? { files: e.files.slice(0, 20) } : {}),
      ...(e.taskId ? { taskId: e.taskId } : {}),
      ...(e.sessionId ? { sessionId: e.sessionId } : {}),
      ...(e.error ? { error: clip(e.error) } : {}),
      ...(state ? { state } : {}),
      ...(answer ? { answer: clip(answer) } : {}),
    };
  });
  const current: Record<string, number> = {};
  for (const c of conversations) {
    const open = s.consoleCurrent[conversationKey(dir, c.capsuleId)];
    if (open !== undefined && conversationsOf(s.consoleConversations, dir, c.capsuleId).some((x) => x.id === open))
      current[c.capsuleId] = open;
  }
  return { conversations, entries, current };
}

/** A write refused because the workspace it was for is no longer the open one. */
const isStale = (err: unknown) =>
  err instanceof CoreError && (err.code === 'conflict' || err.code === 'workspace_missing');

/** Whether a kept task may still be running, so its live state is worth asking for. */
export const keptUnfinished = (state: TaskState | undefined) => !!state && !isTerminal(state);

interface Store {
  getState(): StudioState;
  subscribe(listener: (s: StudioState, prev: StudioState) => void): () => void;
}

/**
 * Keeps the console, the selection and its details tab of the open workspace, and restores them when a workspace
 * opens. Returns the unsubscribe.
 */
export function startKeeping(store: Store, delayMs = SAVE_DELAY_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastSaved = '';
  /** The workspace whose kept state was read (saving waits for it, so an empty page never overwrites the file). */
  let restored: string | undefined;

  const save = () => {
    timer = undefined;
    const s = store.getState();
    const dir = s.workspace?.dir;
    if (!dir || restored !== dir) return;
    const kept = toKept(s, dir);
    const text = JSON.stringify(kept);
    if (text === lastSaved) return;
    lastSaved = text;
    invoke('conversations.save', { ...kept, workspace: dir }).catch((err) => {
      // Another workspace opened (or this one was removed) before the write: nothing to keep there.
      if (isStale(err)) return;
      store.getState().notify('warning', `Could not keep the console's conversations: ${(err as Error).message}`);
    });
  };

  const restore = async (dir: string) => {
    try {
      const [kept, layout] = await Promise.all([invoke('conversations.get', {}), invoke('layout.get', {})]);
      const s = store.getState();
      if (s.workspace?.dir !== dir) return;
      s.restoreConversations(dir, kept);
      // The console reopens on the capsule last talked to, in the conversation that was open.
      const last = kept.entries[kept.entries.length - 1];
      if (last && s.capsules[last.capsuleId]) s.setConsoleTarget(last.capsuleId);
      lastSaved = JSON.stringify(toKept(store.getState(), dir));
      if (layout.selected && !s.selectedId && s.capsules[layout.selected]) {
        s.select(layout.selected);
        // The details open on the tab that was open, as the selection comes back.
        if (layout.tab) s.setSideTab(layout.tab);
      }
      // Tasks that were still running when kept: their session may still run them.
      for (const e of store.getState().consoleEntries)
        if (e.dir === dir && e.taskId && keptUnfinished(e.state) && s.capsules[e.capsuleId])
          void s.refreshTask(e.capsuleId, e.taskId);
    } catch {
      // Kept conversations are a convenience: the console works without them.
    } finally {
      if (store.getState().workspace?.dir === dir) restored = dir;
    }
  };

  return store.subscribe((s, prev) => {
    const dir = s.workspace?.dir;
    if (dir && dir !== prev.workspace?.dir) {
      restored = undefined;
      void restore(dir);
    }
    if (
      dir &&
      s.selectedId !== prev.selectedId &&
      restored === dir &&
      (s.selectedId === null || s.capsules[s.selectedId])
    ) {
      void invoke('layout.set', { workspace: dir, selected: s.selectedId }).catch(() => undefined);
    }
    if (dir && s.sideTab !== prev.sideTab && restored === dir)
      void invoke('layout.set', { workspace: dir, tab: s.sideTab }).catch(() => undefined);
    if (
      s.consoleEntries !== prev.consoleEntries ||
      s.consoleConversations !== prev.consoleConversations ||
      s.consoleCurrent !== prev.consoleCurrent ||
      s.tasks !== prev.tasks
    ) {
      // At most one write per delay, even while a long task keeps changing.
      timer ??= setTimeout(save, delayMs);
    }
  });
}

/** Keeps one panel's size for the workspace `dir` (the core's layout file; the web shell's origin changes with its port). */
export function keepPanelSize(dir: string, name: PanelName, size: number): void {
  void invoke('layout.set', { workspace: dir, panels: { [name]: Math.round(size) } }).catch(() => undefined);
}

/** The open workspace's kept size of a panel, once the core answers. */
export async function keptPanelSize(name: PanelName): Promise<number | undefined> {
  try {
    return (await invoke('layout.get', {})).panels[name];
  } catch {
    return undefined;
  }
}
