import { isTerminal } from '../../src-shared/a2a';
import { describeError, invoke } from './client';
import type { SliceCreator } from './types';
import type { DelegationOutcome } from './delegationsFold';

/** One message the user sent from the console; the task itself lives in the tasks slice. */
export interface ConsoleEntry {
  key: number;
  /** The workspace it was sent in: each workspace keeps its own console history. */
  dir: string;
  capsuleId: string;
  text: string;
  taskId?: string;
  error?: string;
}

export interface ConsoleSlice {
  consoleTarget: string | null;
  /** Every workspace's entries (at most MAX_ENTRIES each); the console shows the open workspace's. */
  consoleEntries: ConsoleEntry[];
  /** Task id -> its delegations, from the trace (delegationsFold.ts). */
  delegations: Record<string, DelegationOutcome[]>;
  setConsoleTarget(id: string | null): void;
  sendMessage(text: string): Promise<void>;
}

let nextKey = 1;
const POLL_MS = 1000;
const MAX_ENTRIES = 50;

/** The entries of one workspace, oldest first. */
export const entriesOf = (entries: ConsoleEntry[], dir: string | undefined) => entries.filter((e) => e.dir === dir);

export const createConsoleSlice: SliceCreator<ConsoleSlice> = (set, get) => {
  const patch = (key: number, p: Partial<ConsoleEntry>) =>
    set((s) => ({ consoleEntries: s.consoleEntries.map((e) => (e.key === key ? { ...e, ...p } : e)) }));

  /** task.updated events carry progress; a slow poll covers a session that emits none. */
  function follow(capsuleId: string, taskId: string) {
    const tick = () => {
      const rec = get().tasks[taskId];
      if (rec && isTerminal(rec.task.status.state)) return;
      if (get().capsules[capsuleId]?.state === 'stopped') return;
      void get().refreshTask(capsuleId, taskId).then(() => setTimeout(tick, POLL_MS));
    };
    setTimeout(tick, POLL_MS);
  }

  return {
    consoleTarget: null,
    consoleEntries: [],
    delegations: {},
    setConsoleTarget(id) {
      set({ consoleTarget: id });
    },
    async sendMessage(text) {
      const capsuleId = get().consoleTarget;
      if (!capsuleId || !text.trim()) return;
      const key = nextKey++;
      const dir = get().workspace?.dir ?? '';
      set((s) => {
        const mine = entriesOf(s.consoleEntries, dir);
        const drop = mine.length >= MAX_ENTRIES ? mine[0].key : undefined;
        return { consoleEntries: [...s.consoleEntries.filter((e) => e.key !== drop), { key, dir, capsuleId, text }] };
      });
      try {
        const task = await invoke('task.send', { capsuleId, text, returnImmediately: true });
        set((s) => ({ tasks: { ...s.tasks, [task.id]: s.tasks[task.id] ?? { capsuleId, task } } }));
        patch(key, { taskId: task.id });
        if (!isTerminal(task.status.state)) follow(capsuleId, task.id);
      } catch (err) {
        patch(key, { error: describeError(err) });
      }
    },
  };
};
