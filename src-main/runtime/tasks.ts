import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type Artifact,
  type Message,
  type StreamResponse,
  type Task,
  type TaskState,
  type TaskStatus,
} from '../../src-shared/a2a';
import { compactTask, expandTask } from './compact';
import type { TaskUsage } from './executor';
import type { InFlightWork } from './tool-types';

// The task registry of a session. A live task keeps what running it needs; once terminal it is
// reduced to its final Task JSON (a string: PERFORMANCE.md wants ≤ 1 KB per finished task), which
// stays answerable for the whole session.

export interface LiveTask {
  id: string;
  contextId: string;
  status: TaskStatus;
  history: Message[];
  artifacts?: Artifact[];
  text: string;
  /** The W3C traceparent the task arrived with: its delegations stay in that trace. */
  traceparent?: string;
  controller: AbortController;
  works: Set<InFlightWork>;
  /** What the task waits on now (queue, inference turn n, tools, input), for task_canceled. */
  waiting: string;
  createdAt: number;
  startedAt?: number;
  usage: TaskUsage;
  /** Blocking SendMessage callers waiting for the next terminal or interrupted state. */
  settlers: ((task: Task) => void)[];
  /** Set while the task waits in INPUT_REQUIRED. */
  input?: { resolve(text: string): void };
  /** Set once a cancel began: a late result must never overwrite the cancel. */
  canceling?: Promise<CancelAnswer>;
}

export interface CancelAnswer {
  task: Task;
  residue: import('./tool-types').ResidueItem[];
}

export type TaskListener = (taskId: string, event: StreamResponse) => void;

export function statusMessage(taskId: string, contextId: string, text: string, suffix = 'status'): Message {
  return {
    messageId: `msg_${taskId}_${suffix}`,
    contextId,
    taskId,
    role: 'ROLE_AGENT',
    parts: [{ text, mediaType: 'text/plain' }],
  };
}

/** historyLength: undefined = all, 0 = none (field left out), n = the last n messages. */
export function withHistory(task: Task, historyLength?: number): Task {
  if (historyLength === undefined || !task.history) return task;
  const { history, ...rest } = task;
  if (historyLength <= 0) return rest;
  return { ...rest, history: history.slice(-historyLength) };
}

export function createTaskRegistry() {
  const live = new Map<string, LiveTask>();
  const done = new Map<string, string>();
  const listeners = new Set<TaskListener>();

  const emit = (taskId: string, event: StreamResponse) => {
    if (listeners.size === 0) return;
    for (const l of listeners) {
      try {
        l(taskId, event);
      } catch {}
    }
  };

  const toTask = (t: LiveTask): Task => {
    const task: Task = { id: t.id, contextId: t.contextId, status: t.status };
    if (t.artifacts) task.artifacts = t.artifacts;
    if (t.history.length) task.history = [...t.history];
    return task;
  };

  return {
    live,
    emit,
    /** Emits the task's current status (its creation, before the task runs). */
    emitStatus(t: LiveTask) {
      if (listeners.size) emit(t.id, { statusUpdate: { taskId: t.id, contextId: t.contextId, status: t.status } });
    },
    toTask,
    onTaskEvent(listener: TaskListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    add(t: LiveTask) {
      live.set(t.id, t);
    },
    has: (id: string) => live.has(id) || done.has(id),
    get(id: string, historyLength?: number): Task | undefined {
      const l = live.get(id);
      if (l) return withHistory(toTask(l), historyLength);
      const json = done.get(id);
      return json === undefined ? undefined : withHistory(expandTask(json), historyLength);
    },
    /** Every task, oldest first. */
    list(): Task[] {
      const out: Task[] = [];
      for (const json of done.values()) out.push(expandTask(json));
      for (const l of live.values()) out.push(toTask(l));
      return out;
    },
    count: () => live.size + done.size,
    setStatus(t: LiveTask, state: TaskState, message?: Message) {
      t.status = message ? { state, message, timestamp: new Date().toISOString() } : { state, timestamp: new Date().toISOString() };
      if (listeners.size) emit(t.id, { statusUpdate: { taskId: t.id, contextId: t.contextId, status: t.status } });
      if (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state)) {
        const settlers = t.settlers;
        if (settlers.length) {
          t.settlers = [];
          const task = toTask(t);
          for (const s of settlers) s(task);
        }
      }
    },
    addArtifact(t: LiveTask, artifact: Artifact) {
      (t.artifacts ??= []).push(artifact);
      if (listeners.size) emit(t.id, { artifactUpdate: { taskId: t.id, contextId: t.contextId, artifact, lastChunk: true } });
    },
    /** Takes back a task a previous run of this session finished (see resume.ts). */
    restore(task: Task) {
      if (!live.has(task.id)) done.set(task.id, compactTask(task));
    },
    /** Reduces a terminal task to its final JSON. */
    finish(t: LiveTask) {
      done.set(t.id, compactTask(toTask(t)));
      live.delete(t.id);
    },
  };
}

export type TaskRegistry = ReturnType<typeof createTaskRegistry>;
