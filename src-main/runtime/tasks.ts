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
import { createMasker, isoNow, type TraceWriter } from '../trace';
import { compactTask, expandTask } from './compact';
import type { TaskUsage } from './executor';
import {
  readTaskPayloadAsync,
  statusTextOf,
  type FinishedTask,
  type RecordedTask,
  type TaskPayload,
} from './task-records';
import type { InFlightWork, ResidueItem } from './tool-types';
import type { TaskPause } from './pause';
import { RenewingMap } from './renewing-map';

// The task registry of a session, and the one place a task's visible content is produced: every
// task and task event it hands out (door answers, streams, push, the Studio) has the session's
// secrets masked. Memory is bounded: a live task keeps what running it needs; a finished one is
// kept whole (as its compact final JSON) only while it is among the newest KEEP_FINISHED; after
// that only a FinishedTask of a few fields stays, and its messages and answer are read back from
// trace.jsonl when asked for, off the main thread (read): nothing here reads a file on the thread
// that calls it. What answers at once (peek, stateOf, list) never touches the records.

export interface LiveTask {
  id: string;
  contextId: string;
  status: TaskStatus;
  history: Message[];
  artifacts?: Artifact[];
  text: string;
  /** The W3C traceparent the task arrived with: its delegations stay in that trace. */
  traceparent?: string;
  controller: TaskAbort;
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
  /** Set while the task is paused at a breakpoint (breakpoints.ts). */
  pause?: TaskPause;
  /** The user stepped: pause before the next turn whatever the breakpoints say. */
  stepping?: boolean;
  /** The task's last pause, so its pauses (parallel delegations) come one after the other. */
  pausing?: Promise<unknown>;
  /** How many times the task paused so far. */
  pauses?: number;
  /** Set once a cancel began: a late result must never overwrite the cancel. */
  canceling?: Promise<CancelAnswer>;
  /** Where the task's trace lines begin at the earliest (the trace's size when it arrived). */
  offset: number;
  /** The trace's lost line count when the task arrived: more at its end means its record is incomplete. */
  lostAtArrival: number;
  /** Characters of message text the task took so far (first message and follow-ups). */
  payload: number;
}

/**
 * A task's cancel switch. Its AbortSignal (what a provider's SDK, a tool's fetch or a timer takes)
 * is made the first time something asks for it: a task that only reads `aborted`, as a rehearsal
 * turn does, never pays for one (making an AbortSignal costs more than the rest of a task's
 * bookkeeping).
 */
export class TaskAbort {
  aborted = false;
  private controller: AbortController | undefined;
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
  }
}

export interface CancelAnswer {
  task: Task;
  residue: ResidueItem[];
}

export type TaskListener = (taskId: string, event: StreamResponse) => void;

/** Finished tasks kept whole in memory: the newest 256, and no more than 8 MiB of their JSON. */
export const KEEP_FINISHED = { tasks: 256, bytes: 8 * 1024 * 1024 };

/** What a string costs in memory: V8 keeps one byte a character when all are Latin-1, else two. */
const stringBytes = (s: string) => (/[\u0100-\uffff]/.test(s) ? 2 : 1) * s.length;

/**
 * Message text one task takes in all (its first message and every follow-up, data parts counted as
 * their JSON): 4 Mi characters. Each request is also at most the door's body limit (1 MiB).
 */
export const MAX_TASK_PAYLOAD = 4 * 1024 * 1024;

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

export interface TaskRegistryOptions {
  /** The session's trace: where old tasks are read back from. */
  trace: Pick<TraceWriter, 'path' | 'flush' | 'sessionId'>;
  /** Masked in everything the registry hands out. */
  secrets?: readonly string[];
  /** Overrides KEEP_FINISHED (tests). */
  keep?: { tasks: number; bytes: number };
}

export function createTaskRegistry(options: TaskRegistryOptions) {
  const { trace } = options;
  const keep = options.keep ?? KEEP_FINISHED;
  const mask = createMasker(options.secrets ?? []);
  const live = new RenewingMap<string, LiveTask>();
  /** Every finished task, oldest first. */
  const finished = new Map<string, FinishedTask>();
  /**
   * Compact final JSON of the newest finished tasks, oldest first. The JSON itself is the value: a
   * wrapper object made at every finish is what V8 learns to allocate straight in old space (most
   * of them outlive a young collection here), where each, once dropped, keeps its JSON alive
   * through every young collection until a full one.
   */
  const whole = new RenewingMap<string, string>();
  let wholeBytes = 0;
  const listeners = new Set<TaskListener>();

  const emit = (taskId: string, event: StreamResponse) => {
    if (listeners.size === 0) return;
    const shown = mask(event);
    for (const l of listeners) {
      try {
        l(taskId, shown);
      } catch {}
    }
  };

  const toTask = (t: LiveTask): Task => {
    const task: Task = { id: t.id, contextId: t.contextId, status: t.status };
    if (t.artifacts) task.artifacts = t.artifacts;
    if (t.history.length) task.history = [...t.history];
    return mask(task);
  };

  const keepWhole = (id: string, json: string) => {
    whole.set(id, json);
    wholeBytes += stringBytes(json);
    while (whole.size > keep.tasks || wholeBytes > keep.bytes) {
      const oldest = whole.keys().next().value as string;
      wholeBytes -= stringBytes(whole.get(oldest)!);
      whole.delete(oldest);
    }
  };

  /** Whether an old task must be read from the records: for its messages and answer, or a status text not kept. */
  const needsRecords = (f: FinishedTask, payload: boolean) => payload || f.statusText === undefined;

  /**
   * Reads an old task's lines off the main thread. Its last lines may still wait in the writer
   * (a task that has just finished): the read starts once they are in the file.
   */
  const readLater = async (id: string, f: FinishedTask): Promise<TaskPayload | undefined> => {
    await trace.flush();
    try {
      return await readTaskPayloadAsync(trace.path, f.offset, id, trace.sessionId);
    } catch {
      return undefined;
    }
  };

  /** An old task as its FinishedTask says, with its messages and answer when `payload` (`read` holds them). */
  const fromRecords = (id: string, f: FinishedTask, payload: boolean, read: TaskPayload | undefined): Task => {
    // A task_end line that holds the final task says it all, exactly.
    if (read?.task) return payload ? read.task : { id, contextId: read.task.contextId, status: read.task.status };
    const contextId = f.contextId || read?.contextId || '';
    const text = f.statusText === undefined ? (read?.statusText ?? `task ended ${f.state}`) : f.statusText;
    const status: TaskStatus =
      text === null ? { state: f.state } : { state: f.state, message: statusMessage(id, contextId, text) };
    if (f.timestamp !== undefined) status.timestamp = f.timestamp;
    const task: Task = { id, contextId, status };
    if (payload && read?.artifacts) task.artifacts = read.artifacts;
    if (payload && read?.history.length) task.history = read.history;
    return task;
  };

  /** A task memory holds (live, or finished and kept whole), historyLength applied; never reads a file. */
  const peekHeld = (id: string, historyLength?: number): Task | undefined => {
    const l = live.get(id);
    if (l) return withHistory(toTask(l), historyLength);
    const kept = whole.get(id);
    return kept === undefined ? undefined : withHistory(expandTask(kept), historyLength);
  };

  /** A finished task as far as memory holds it: whole when kept, else its FinishedTask without the records. */
  const finishedInMemory = (id: string): Task | undefined => {
    const kept = whole.get(id);
    if (kept) return expandTask(kept);
    const f = finished.get(id);
    if (!f || f.statusText !== undefined) return f && fromRecords(id, f, false, undefined);
    const status: TaskStatus = { state: f.state };
    if (f.timestamp !== undefined) status.timestamp = f.timestamp;
    return { id, contextId: f.contextId, status };
  };

  return {
    live,
    emit,
    /** Emits the task's current status (its creation, before the task runs). */
    emitStatus(t: LiveTask) {
      if (listeners.size) emit(t.id, { statusUpdate: { taskId: t.id, contextId: t.contextId, status: t.status } });
    },
    toTask,
    /** A value as the registry hands it out: the session's secrets masked. */
    mask,
    onTaskEvent(listener: TaskListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    add(t: LiveTask) {
      live.set(t.id, t);
    },
    has: (id: string) => live.has(id) || finished.has(id),
    /** Whether memory holds the task whole: live, or finished and among the newest kept whole. */
    holds: (id: string) => live.has(id) || whole.has(id),
    /** A task's state, whatever its age, from memory alone. */
    stateOf(id: string): TaskState | undefined {
      return live.get(id)?.status.state ?? finished.get(id)?.state;
    },
    /** A finished task's context ('' when its records did not say) and state, from memory alone. */
    ended(id: string): { contextId: string; state: TaskState } | undefined {
      const f = finished.get(id);
      return f && { contextId: f.contextId, state: f.state };
    },
    /**
     * A task memory holds, historyLength applied: a live one, or a finished one kept whole;
     * undefined for any other (an older task is read with read()). Never reads a file.
     */
    peek: peekHeld,
    /**
     * Any task, historyLength applied (a door's GetTask): an old task's lines are read off the main
     * thread, after the lines still waiting in the writer reach the file. `payload: false` asks for
     * its status only (ListTasks without history or artifacts): the records are read only for a
     * status text not kept in memory.
     */
    async read(id: string, historyLength?: number, payload = true): Promise<Task | undefined> {
      const held = peekHeld(id, historyLength);
      if (held) return held;
      const f = finished.get(id);
      if (!f) return undefined;
      const read = needsRecords(f, payload) ? await readLater(id, f) : undefined;
      return withHistory(fromRecords(id, f, payload, read), historyLength);
    },
    /**
     * Every task, oldest first, from memory alone. Tasks past the newest KEEP_FINISHED carry their
     * status only (no history, no artifacts), and a status text too long to keep is left out
     * (`status.message` missing): read() has the rest.
     */
    list(): Task[] {
      const out: Task[] = [];
      for (const id of finished.keys()) out.push(finishedInMemory(id)!);
      for (const l of live.values()) out.push(toTask(l));
      return out;
    },
    count: () => live.size + finished.size,
    /** Ids of the finished tasks of a context that ran (not the rejected ones), oldest first. */
    finishedOf(contextId: string): string[] {
      const out: string[] = [];
      for (const [id, f] of finished) if (f.contextId === contextId && f.state !== 'TASK_STATE_REJECTED') out.push(id);
      return out;
    },
    /**
     * Sets the task's status; a terminal or interrupted one is handed to the callers waiting for
     * it, and returned (undefined when nobody waited), so a task that ends now needs no second copy.
     */
    setStatus(t: LiveTask, state: TaskState, message?: Message): Task | undefined {
      const timestamp = isoNow();
      t.status = message ? { state, message, timestamp } : { state, timestamp };
      if (listeners.size) emit(t.id, { statusUpdate: { taskId: t.id, contextId: t.contextId, status: t.status } });
      if (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state)) {
        const settlers = t.settlers;
        if (settlers.length) {
          t.settlers = [];
          const task = toTask(t);
          for (const s of settlers) s(task);
          return task;
        }
      }
      return undefined;
    },
    addArtifact(t: LiveTask, artifact: Artifact) {
      (t.artifacts ??= []).push(artifact);
      if (listeners.size)
        emit(t.id, { artifactUpdate: { taskId: t.id, contextId: t.contextId, artifact, lastChunk: true } });
    },
    /** Takes back the tasks a previous run of this session recorded (see task-records.ts). */
    restore(tasks: RecordedTask[]) {
      for (const { id, ...f } of tasks) if (!live.has(id)) finished.set(id, f);
    },
    /** The task as it ends, for its task_end line (what old tasks are read back from). */
    finalTask: toTask,
    /**
     * A terminal task leaves the live set (`task` is finalTask's answer and `compactJson` its
     * compact form's JSON when the caller has them). `keepPayload: false` (a rejected task) keeps
     * only its FinishedTask: its message is in the records, not in memory.
     */
    finish(t: LiveTask, keepPayload = true, task: Task = toTask(t), compactJson?: string) {
      finished.set(t.id, {
        contextId: t.contextId,
        state: task.status.state,
        timestamp: task.status.timestamp,
        statusText: statusTextOf(task),
        offset: t.offset,
      });
      live.delete(t.id);
      if (keepPayload) keepWhole(t.id, compactJson ?? compactTask(task));
    },
  };
}

export type TaskRegistry = ReturnType<typeof createTaskRegistry>;
