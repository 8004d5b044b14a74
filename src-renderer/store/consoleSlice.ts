import { isTerminal } from '../../src-shared/a2a';
import { describeError, invoke } from './client';
import type { SliceCreator } from './types';

/** One message the user sent from the console; the task itself lives in the tasks slice. */
export interface ConsoleEntry {
  key: number;
  capsuleId: string;
  text: string;
  taskId?: string;
  error?: string;
}

export interface ConsoleSlice {
  consoleTarget: string | null;
  consoleEntries: ConsoleEntry[];
  setConsoleTarget(id: string | null): void;
  sendMessage(text: string): Promise<void>;
}

let nextKey = 1;
const POLL_MS = 1000;

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
    setConsoleTarget(id) {
      set({ consoleTarget: id });
    },
    async sendMessage(text) {
      const capsuleId = get().consoleTarget;
      if (!capsuleId || !text.trim()) return;
      const key = nextKey++;
      set((s) => ({ consoleEntries: [...s.consoleEntries, { key, capsuleId, text }].slice(-50) }));
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
