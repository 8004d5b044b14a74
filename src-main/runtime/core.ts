import type { Manifest } from '../../src-shared/manifest';
import type { TaskState } from '../../src-shared/a2a';
import type { ChatMessage } from '../drivers';
import type { TraceWriter } from '../trace';
import type { TaskExecutor } from './executor';
import type { TaskQueue } from './queue';
import type { LiveTask, TaskRegistry } from './tasks';

// The state one session's task machinery shares (accept, run, cancel, lifecycle).

export interface SessionCore {
  sessionId: string;
  manifest: Manifest;
  trace: TraceWriter;
  registry: TaskRegistry;
  queue: TaskQueue;
  executor: TaskExecutor;
  /** The conversation of each context, shared by the tasks that name it. */
  contexts: Map<string, ChatMessage[]>;
  inputTimeoutMs: number;
  totals: { tokensIn: number; tokensOut: number };
  /** Starts the next queued task if the running slot is free. */
  pump(): void;
  /** Called whenever a task reached a terminal state (after_task, idle timer). */
  onTaskFinished(): void;
  /** Called when a task arrives (idle timer). */
  onTaskArrived(): void;
}

export type ExitStatus = 'ok' | 'failed' | 'canceled' | 'rejected';

export function traceTask(core: SessionCore, t: LiveTask, event: { event_type: string } & Record<string, unknown>): void {
  core.trace.append({ ...event, task_id: t.id });
}

/** task_end, totals, and the reduction of the task to its final JSON. */
export function endTask(core: SessionCore, t: LiveTask, exit: ExitStatus, state: TaskState, answer?: string): void {
  const u = t.usage;
  core.totals.tokensIn += u.tokensIn;
  core.totals.tokensOut += u.tokensOut;
  traceTask(core, t, {
    event_type: 'task_end',
    exit_status: exit,
    state,
    turns: u.turns,
    tokens_in: u.tokensIn,
    tokens_out: u.tokensOut,
    duration_ms: Date.now() - (t.startedAt ?? t.createdAt),
    ...(answer !== undefined ? { answer } : {}),
  });
  core.registry.finish(t);
  if (core.queue.running === t.id) core.queue.running = null;
  core.queue.remove(t.id);
  core.onTaskFinished();
  core.pump();
}
