import type { Manifest } from '../../src-shared/manifest';
import type { Task, TaskState } from '../../src-shared/a2a';
import type { ChatMessage } from '../drivers';
import { compactOf, type TraceWriter } from '../trace';
import type { Conversations } from './conversations';
import type { TaskExecutor } from './executor';
import type { TaskQueue } from './queue';
import type { SessionBreakpoints } from './pause';
import type { LiveTask, TaskRegistry } from './tasks';

// The state one session's task machinery shares (accept, run, cancel, lifecycle).

export interface SessionCore {
  sessionId: string;
  manifest: Manifest;
  trace: TraceWriter;
  registry: TaskRegistry;
  queue: TaskQueue;
  executor: TaskExecutor;
  /** The conversation of each context, shared by its tasks (conversations.ts). */
  conversations: Conversations;
  inputTimeoutMs: number;
  /** What this session pauses at, as the Studio last pushed it (breakpoints.ts); none by default. */
  breakpoints?: SessionBreakpoints;
  /** Parked tasks whose input arrived: run when the queue gives them the slot (pump). */
  resumes: Map<string, () => void>;
  totals: { tokensIn: number; tokensOut: number };
  /** Starts the next queued task if the running slot is free. */
  pump(): void;
  /** Called whenever a task reached a terminal state (after_task, idle timer). */
  onTaskFinished(exit: ExitStatus): void;
  /** Called when a task arrives (idle timer). */
  onTaskArrived(): void;
}

export type ExitStatus = 'ok' | 'failed' | 'canceled' | 'rejected';

/** Appends a task's trace line; `event` is a fresh object the caller hands over (no copy on the hot path). */
export function traceTask(
  core: SessionCore,
  t: LiveTask,
  event: { event_type: string } & Record<string, unknown>,
): void {
  core.trace.appendTask(t.id, event);
}

/**
 * task_end, totals, and the reduction of the task to its final JSON. `settled` is the task as the
 * status that ended it handed it out (setStatus), when it did: the same task, not copied again.
 */
export function endTask(
  core: SessionCore,
  t: LiveTask,
  exit: ExitStatus,
  state: TaskState,
  answer?: string,
  settled?: Task,
): void {
  const u = t.usage;
  core.totals.tokensIn += u.tokensIn;
  core.totals.tokensOut += u.tokensOut;
  const event: { event_type: string } & Record<string, unknown> = {
    event_type: 'task_end',
    exit_status: exit,
    state,
    turns: u.turns,
    tokens_in: u.tokensIn,
    tokens_out: u.tokensOut,
    duration_ms: Date.now() - (t.startedAt ?? t.createdAt),
  };
  if (answer !== undefined) event.answer = answer;
  // The final task, as GetTask answers it, in its compact form (trace/final-task.ts: what the
  // runtime writes the same way every time is left out): an old task is read back from this line
  // exactly, the index keeps it for GetTask after a restart. The registry keeps the same form.
  const task = settled ?? core.registry.finalTask(t);
  const final = compactOf(task);
  // Serialized once: the line's last field and the JSON the registry keeps.
  const finalJson = JSON.stringify(final);
  core.trace.appendTask(t.id, event, { key: 'final', value: final, json: finalJson });
  // A rejected task never ran: what it carried stays in the records only.
  core.registry.finish(t, exit !== 'rejected', task, finalJson);
  shelveConversation(core, t, answer);
  if (core.queue.running === t.id) core.queue.running = null;
  core.queue.remove(t.id);
  core.resumes.delete(t.id);
  core.onTaskFinished(exit);
  core.pump();
}

/** The conversation of a context, ready to be appended to. */
export function conversationOf(core: SessionCore, contextId: string): ChatMessage[] {
  return core.conversations.take(contextId);
}

/** Once no task of a context is live, its conversation is shelved (kept small, and bounded). */
function shelveConversation(core: SessionCore, t: LiveTask, answer: string | undefined): void {
  for (const l of core.registry.live.values()) if (l.contextId === t.contextId) return;
  core.conversations.shelve(t.contextId, t.id, t.text, answer);
}
