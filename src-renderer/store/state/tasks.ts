import type { Task } from '../../../src-shared/a2a';
import type { CancelAnswer, StopSessionAnswer } from '../../../src-shared/contract';

// The shape of the store's tasks slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/** A task as the Studio last saw it, with the capsule whose door holds it. */
export interface TaskRecord {
  capsuleId: string;
  sessionId?: string;
  task: Task;
}

export interface TasksSlice {
  tasks: Record<string, TaskRecord>;
  /** What the door said to the last Cancel of each task. */
  cancelAnswers: Record<string, CancelAnswer & { error?: string }>;
  /** What the last Stop session (or Cancel all tasks) of each capsule canceled and left behind. */
  stopAnswers: Record<string, StopSessionAnswer & { error?: string }>;
  loadTasks(capsuleId: string): Promise<void>;
  /** A stopped capsule's tasks as its last session recorded them (a reloaded page holds none of them). */
  loadStoppedTasks(capsuleId: string): Promise<void>;
  refreshTask(capsuleId: string, taskId: string): Promise<void>;
  cancelTask(capsuleId: string, taskId: string): Promise<void>;
  /** Ends the session (its tasks canceled first). */
  stopSession(capsuleId: string): Promise<void>;
  /** Cancels every task; the session keeps running. */
  cancelAllTasks(capsuleId: string): Promise<void>;
  /** A Stop session (of `capsuleId`) or Stop all (no id) waiting for the user's yes: tasks are running. */
  stopAsk: {
    capsuleId?: string;
    running: number;
    /** Of those running, paused at a breakpoint. */
    paused: number;
  } | null;
  /** Every Stop: a node's, Stop session, or Stop all without an id. At once when no task runs, else asks first (stopAsk). */
  requestStop(capsuleId?: string): Promise<void>;
  /** The user's answer to stopAsk. */
  answerStop(stop: boolean): Promise<void>;
}
