import type { EventPayload } from '../../src-shared/contract';
import { isTerminal, type Task } from '../../src-shared/a2a';
export { answerText } from '../../src-shared/a2a';
import { describeError, invoke } from './client';
import { taskPhase } from './phase';
import type { SliceCreator, StudioState } from './types';
import type { TasksSlice } from './state/tasks';
export type { TaskRecord, TasksSlice } from './state/tasks';

/**
 * Tasks not yet finished (working, waiting for input, paused) in the running sessions, of one capsule
 * or all, with how many of them are paused at a breakpoint (`taskPhase`).
 */
export function unfinishedTasks(s: StudioState, capsuleId?: string): { running: number; paused: number } {
  let running = 0;
  let paused = 0;
  for (const rec of Object.values(s.tasks)) {
    if (capsuleId !== undefined && rec.capsuleId !== capsuleId) continue;
    const session = s.capsules[rec.capsuleId]?.sessionId;
    if (!session || (rec.sessionId && rec.sessionId !== session) || isTerminal(rec.task.status.state)) continue;
    running++;
    if (taskPhase(s, rec.task.id, rec.task.status.state) === 'paused') paused++;
  }
  return { running, paused };
}

type TaskUpdate = EventPayload<'task.updated'>;

// One fact arrives once. A task's state reaches the store as task.updated, in the order the session
// changed it, and each event replaces what was held. Commands that change a task (send, reply,
// cancel) answer with what no event carries (the new task's id, the residue), not the state again.
// Reads fill what the events cannot: task.list the tasks from before this page subscribed (never one
// it already holds, which events keep current), task.get one task after the link to the core was
// down (its events were lost) or its full history.

export function foldTaskUpdates(state: StudioState, updates: TaskUpdate[]): Partial<StudioState> {
  if (updates.length === 0) return {};
  const tasks = { ...state.tasks };
  for (const u of updates) tasks[u.task.id] = { capsuleId: u.capsuleId, sessionId: u.sessionId, task: u.task };
  return { tasks };
}

export const createTasksSlice: SliceCreator<TasksSlice> = (set, get) => {
  // The session a task was read from is the capsule's running one (the inspector reads its trace there).
  const put = (capsuleId: string, task: Task) =>
    set((s) => ({
      tasks: { ...s.tasks, [task.id]: { capsuleId, sessionId: s.capsules[capsuleId]?.sessionId, task } },
    }));
  const stopOrCancelAll = async (capsuleId: string, command: 'session.stop' | 'session.cancelAll') => {
    const sessionId = get().capsules[capsuleId]?.sessionId ?? '';
    try {
      const answer = await invoke(command, { capsuleId });
      set((s) => ({ stopAnswers: { ...s.stopAnswers, [capsuleId]: answer } }));
    } catch (err) {
      const failed = { session_id: sessionId, canceled: [], residue: [], ended: false, error: describeError(err) };
      set((s) => ({ stopAnswers: { ...s.stopAnswers, [capsuleId]: failed } }));
    }
  };
  return {
    tasks: {},
    cancelAnswers: {},
    stopAnswers: {},
    async loadTasks(capsuleId) {
      try {
        const list = await invoke('task.list', { capsuleId });
        set((s) => {
          const tasks = { ...s.tasks };
          const sessionId = s.capsules[capsuleId]?.sessionId;
          for (const t of list) tasks[t.id] ??= { capsuleId, sessionId, task: t };
          return { tasks };
        });
      } catch (err) {
        if ((err as { code?: string }).code !== 'not_running')
          get().notify('error', `Could not list tasks: ${describeError(err)}`);
      }
    },
    async loadStoppedTasks(capsuleId) {
      // The session that ran the capsule's last task, as the core's record of the capsule names it
      // (kept while this Studio runs): none known, the tab says there are no tasks.
      const sessionId = get().capsules[capsuleId]?.lastTask?.sessionId;
      if (!sessionId) return;
      try {
        // Loaded with the first stopped capsule's Tasks tab, not with the window.
        const { lastSessionTasks } = await import('./stoppedTasks');
        const records = await lastSessionTasks(capsuleId, sessionId);
        if (get().capsules[capsuleId]?.sessionId) return; // launched meanwhile: its door answers
        set((s) => {
          const tasks = { ...s.tasks };
          for (const r of records) tasks[r.task.id] ??= r;
          return { tasks };
        });
      } catch {
        // No record of it (removed, or the trace store unreadable): the tab says there are no tasks.
      }
    },
    async refreshTask(capsuleId, taskId) {
      try {
        put(capsuleId, await invoke('task.get', { capsuleId, taskId }));
      } catch {
        // The next task.updated event brings it.
      }
    },
    async cancelTask(capsuleId, taskId) {
      try {
        // The canceled state arrives as task.updated; the answer adds the residue and any refusal.
        const answer = await invoke('task.cancel', { capsuleId, taskId });
        set((s) => ({ cancelAnswers: { ...s.cancelAnswers, [taskId]: answer } }));
      } catch (err) {
        set((s) => ({ cancelAnswers: { ...s.cancelAnswers, [taskId]: { residue: [], error: describeError(err) } } }));
      }
    },
    stopSession: (capsuleId) => stopOrCancelAll(capsuleId, 'session.stop'),
    cancelAllTasks: (capsuleId) => stopOrCancelAll(capsuleId, 'session.cancelAll'),
    stopAsk: null,
    async requestStop(capsuleId) {
      const { running, paused } = unfinishedTasks(get(), capsuleId);
      if (running > 0) return set({ stopAsk: { capsuleId, running, paused } });
      // A capsule still starting has no session to stop yet, and no task either: its start is ended.
      if (capsuleId !== undefined && !get().capsules[capsuleId]?.sessionId) return get().stopCapsule(capsuleId);
      await (capsuleId === undefined ? get().stopAll() : get().stopSession(capsuleId));
    },
    async answerStop(stop) {
      const ask = get().stopAsk;
      set({ stopAsk: null });
      if (!ask || !stop) return;
      await (ask.capsuleId === undefined ? get().stopAll() : get().stopSession(ask.capsuleId));
    },
  };
};
