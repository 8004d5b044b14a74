import type { Manifest } from '../../src-shared/manifest';
import type { TaskState } from '../../src-shared/a2a';
import type { ChatMessage } from '../drivers';
import type { TraceWriter } from '../trace';
import { messageText } from './message-text';
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
  /**
   * The conversation of each context, shared by its tasks. While no task of it is live it is kept
   * as JSON, or as the id of the one task whose question and answer are all of it.
   */
  contexts: Map<string, ChatMessage[] | string>;
  inputTimeoutMs: number;
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
export function traceTask(core: SessionCore, t: LiveTask, event: { event_type: string } & Record<string, unknown>): void {
  event.task_id = t.id;
  core.trace.append(event);
}

/** task_end, totals, and the reduction of the task to its final JSON. */
export function endTask(core: SessionCore, t: LiveTask, exit: ExitStatus, state: TaskState, answer?: string): void {
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
  traceTask(core, t, event);
  // A rejected task never ran: what it carried stays in the records only.
  core.registry.finish(t, exit !== 'rejected');
  shelveConversation(core, t, answer);
  if (core.queue.running === t.id) core.queue.running = null;
  core.queue.remove(t.id);
  core.onTaskFinished(exit);
  core.pump();
}

/** The conversation of a context, ready to be appended to. */
export function conversationOf(core: SessionCore, contextId: string): ChatMessage[] {
  const held = core.contexts.get(contextId);
  let conv: ChatMessage[];
  if (typeof held !== 'string') conv = held ?? [];
  else if (held.startsWith('[')) conv = JSON.parse(held) as ChatMessage[];
  else conv = fromTask(core, held);
  core.contexts.set(contextId, conv);
  return conv;
}

/** A context whose whole conversation is one task's question and answer points at that task. */
function fromTask(core: SessionCore, taskId: string): ChatMessage[] {
  const t = core.registry.get(taskId);
  const question = t?.history?.[0] ? messageText(t.history[0]) : '';
  const answer = t?.artifacts?.[0]?.parts[0]?.text ?? '';
  return [
    { role: 'user', content: question },
    { role: 'assistant', content: answer },
  ];
}

/** Once no task of a context is live, its conversation is kept compact (PERFORMANCE.md memory). */
function shelveConversation(core: SessionCore, t: LiveTask, answer: string | undefined): void {
  const held = core.contexts.get(t.contextId);
  if (!Array.isArray(held)) return;
  for (const l of core.registry.live.values()) if (l.contextId === t.contextId) return;
  const plain = held.length === 2 && held[0].role === 'user' && held[0].content === t.text && held[1].role === 'assistant' && held[1].content === answer && !held[1].toolCalls;
  core.contexts.set(t.contextId, plain ? t.id : JSON.stringify(held));
}
