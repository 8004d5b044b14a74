import { existsSync } from 'node:fs';
import type { Task, TaskState } from '../../src-shared/a2a';
import { readTraceLines } from '../trace';
import { statusMessage } from './tasks';

// A resumed session (same id, same records folder) answers GetTask for the tasks it finished
// before the restart. trace.jsonl is the source of truth: each task's final state and answer are
// rebuilt from its a2a_task_received/task_start and task_end lines. A task the old process never
// ended (a crash mid-task) is reported FAILED, saying so, rather than left working forever.

const STATUS_TEXT: Partial<Record<TaskState, string>> = {
  TASK_STATE_COMPLETED: 'task completed',
  TASK_STATE_CANCELED: 'task canceled',
  TASK_STATE_REJECTED: 'task rejected',
};

export function finishedTasksOf(tracePath: string): Task[] {
  if (!existsSync(tracePath)) return [];
  const contexts = new Map<string, string>();
  const ended = new Map<string, Task>();
  for (const { event } of readTraceLines(tracePath).lines) {
    const e = event as unknown as Record<string, unknown>;
    const id = typeof e.task_id === 'string' ? e.task_id : undefined;
    if (!id) continue;
    if (typeof e.context_id === 'string' && !contexts.has(id)) contexts.set(id, e.context_id);
    if (e.event_type === 'task_failed') ended.set(id, failed(id, contexts.get(id) ?? '', `task failed: ${String(e.message ?? e.cause)}`, String(e.ts)));
    if (e.event_type !== 'task_end') continue;
    const state = e.state as TaskState;
    const contextId = contexts.get(id) ?? '';
    if (state === 'TASK_STATE_FAILED' && ended.has(id)) continue;
    const text = STATUS_TEXT[state] ?? `task ended ${state}`;
    const task: Task = { id, contextId, status: { state, message: statusMessage(id, contextId, text), timestamp: String(e.ts) } };
    if (typeof e.answer === 'string' && state === 'TASK_STATE_COMPLETED') {
      task.artifacts = [{ artifactId: 'response', name: 'response', parts: [{ text: e.answer, mediaType: 'text/plain' }] }];
    }
    ended.set(id, task);
  }
  for (const [id, contextId] of contexts) {
    if (!ended.has(id)) ended.set(id, failed(id, contextId, 'the session ended before this task finished', undefined));
  }
  return [...ended.values()];
}

function failed(id: string, contextId: string, text: string, ts: string | undefined): Task {
  return { id, contextId, status: { state: 'TASK_STATE_FAILED', message: statusMessage(id, contextId, text), ...(ts ? { timestamp: ts } : {}) } };
}
