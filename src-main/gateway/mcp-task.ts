import { A2AError, INTERRUPTED_STATES, isTerminal, type Message, type Task } from '../../src-shared/a2a';
import { callSession, door, DoorError } from '../door';
import type { ResolvedCapsule } from './types';

// One task started for an MCP tool call, followed to its end. A capsule of this process is reached
// in process, through its door's method table (callSession: the same checks, limits and masked
// answers an A2A caller meets, no HTTP); a capsule whose door runs in another process (a headless
// gateway serving `capsule run` sessions) through the door client. Stopping the wait (the MCP
// request was canceled, or its connection went away) cancels the task, and the runtime's cancel
// ends its delegations with it.

/** How a task ended for the caller: its last state as the capsule reported it, or why it was not started. */
export type TaskOutcome =
  { kind: 'refused'; message: string } | { kind: 'message'; message: Message } | { kind: 'task'; task: Task };

export interface RunTaskOptions {
  signal: AbortSignal;
  /** The most a call waits for its task before canceling it. */
  maxWaitMs: number;
  /** Called on every change of the task while it works (its state and status text). */
  onProgress?(task: Task): void;
}

const POLL_MS = 250;

/** A door refusal as the caller reads it. */
const refusal = (err: unknown): TaskOutcome | undefined => {
  if (err instanceof A2AError) return { kind: 'refused', message: `${err.message} (${err.code})` };
  if (err instanceof DoorError) return { kind: 'refused', message: err.message };
  return undefined;
};

const settled = (t: Task | undefined) => !t || isTerminal(t.status.state) || INTERRUPTED_STATES.has(t.status.state);

interface TaskLink {
  send(message: Message): Promise<{ task?: Task; message?: Message }>;
  get(id: string): Promise<Task | undefined>;
  cancel(id: string): Promise<void>;
  /** Calls `changed` whenever the task may have changed; returns the unsubscribe function. */
  watch(id: string, changed: () => void): () => void;
}

function inProcess(cap: ResolvedCapsule & { session: NonNullable<ResolvedCapsule['session']> }): TaskLink {
  const s = cap.session;
  return {
    send: async (message) =>
      (await callSession(s, 'SendMessage', { message, configuration: { returnImmediately: true } })) as {
        task?: Task;
        message?: Message;
      },
    get: (id) => s.readTask(id, 0),
    cancel: async (id) => {
      await callSession(s, 'CancelTask', { id });
    },
    watch: (id, changed) => s.onTaskEvent((taskId) => taskId === id && changed()),
  };
}

function overTheDoor(cap: ResolvedCapsule): TaskLink {
  return {
    send: (message) => door.sendMessage(cap.url, { message, configuration: { returnImmediately: true } }),
    get: (id) => door.getTask(cap.url, id, 0),
    cancel: async (id) => {
      await door.cancelTask(cap.url, id);
    },
    // The door's stream would do, but a poll is enough for the rare gateway that serves another process's sessions.
    watch(_id, changed) {
      const timer = setInterval(changed, POLL_MS);
      return () => clearInterval(timer);
    },
  };
}

/** Starts the task and resolves with how it ended; canceled on `signal` (the task is stopped before this resolves). */
export async function runTask(cap: ResolvedCapsule, message: Message, opts: RunTaskOptions): Promise<TaskOutcome> {
  const link = cap.session ? inProcess(cap as never) : overTheDoor(cap);
  let sent: { task?: Task; message?: Message };
  try {
    sent = await link.send(message);
  } catch (err) {
    const r = refusal(err);
    if (r) return r;
    throw err;
  }
  if (!sent.task)
    return sent.message
      ? { kind: 'message', message: sent.message }
      : { kind: 'refused', message: 'The capsule answered without a task or a message.' };
  const id = sent.task.id;
  let last: Task = sent.task;

  const ended = await new Promise<'done' | 'aborted' | 'timeout'>((resolve) => {
    let finished = false;
    const finish = (how: 'done' | 'aborted' | 'timeout') => {
      if (finished) return;
      finished = true;
      off();
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      resolve(how);
    };
    const check = () => {
      void link.get(id).then(
        (t) => {
          if (finished || !t) return;
          if (t.status.state !== last.status.state || t.status.timestamp !== last.status.timestamp)
            opts.onProgress?.(t);
          last = t;
          if (settled(t)) finish('done');
        },
        () => undefined,
      );
    };
    const onAbort = () => finish('aborted');
    const off = link.watch(id, check);
    const timer = setTimeout(() => finish('timeout'), opts.maxWaitMs);
    timer.unref?.();
    if (opts.signal.aborted) return onAbort();
    opts.signal.addEventListener('abort', onAbort, { once: true });
    check();
  });

  // Canceled by the caller, waited too long, or waiting for input an MCP call cannot give: the task
  // is canceled (its delegations with it), and the caller learns how it ended.
  if (ended !== 'done' || INTERRUPTED_STATES.has(last.status.state)) {
    await link.cancel(id).catch(() => undefined);
    last = (await link.get(id).catch(() => undefined)) ?? last;
    if (ended === 'timeout')
      return {
        kind: 'refused',
        message: `The task ${id} took longer than ${Math.round(opts.maxWaitMs / 1000)} s and was canceled.`,
      };
  }
  return { kind: 'task', task: last };
}
