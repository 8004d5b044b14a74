import { invalidParams, taskNotFound, unsupportedOperation, type Message, type Task } from '../../src-shared/a2a';
import { newContextId, newTaskId } from '../../src-shared/ids';
import type { AcceptedMessage, IncomingMessage } from './api';
import { endTask, traceTask, type SessionCore } from './core';
import { isoNow } from '../trace';
import { messageText } from './message-text';
import { shallowCopy } from './shallow-copy';
import { MAX_TASK_PAYLOAD, statusMessage, TaskAbort, type LiveTask } from './tasks';

// An incoming message becomes a new task (queued, or REJECTED with the reason when it does not
// fit), or resumes the INPUT_REQUIRED task it names.

const resolved = Promise.resolve();

const PLAIN_KEYS = new Set(['messageId', 'role', 'parts', 'contextId', 'taskId']);

/** A user message of one bare text part: its trace line's text and id say all of it. */
function isPlain(m: Message): boolean {
  if (m.role !== 'ROLE_USER' || m.parts.length !== 1 || typeof m.parts[0].text !== 'string') return false;
  for (const k in m.parts[0]) if (k !== 'text') return false;
  for (const k in m) if (!PLAIN_KEYS.has(k)) return false;
  return true;
}

function received(core: SessionCore, t: LiveTask, incoming: IncomingMessage, text: string): void {
  const { message } = incoming;
  const event: { event_type: string } & Record<string, unknown> = {
    event_type: 'a2a_task_received',
    context_id: t.contextId,
    message_id: message.messageId,
    method: incoming.method ?? 'SendMessage',
    text,
  };
  // Any other message is traced whole, so a task read back from the records shows it as it came.
  if (!isPlain(message)) {
    const { contextId: _c, taskId: _t, ...rest } = message;
    event.message = rest;
  }
  if (incoming.peer) event.peer = incoming.peer;
  if (incoming.traceparent) event.traceparent = incoming.traceparent;
  traceTask(core, t, event);
}

/** The message as the task's history keeps it: the caller's copy, with the task's ids. */
function withIds(message: Message, contextId: string, taskId: string): Message {
  const m = shallowCopy(message);
  m.contextId = contextId;
  m.taskId = taskId;
  return m;
}

const settledPromise = (t: LiveTask) => new Promise<Task>((resolve) => t.settlers.push(resolve));

function resume(core: SessionCore, incoming: IncomingMessage, taskId: string): AcceptedMessage {
  const t = core.registry.live.get(taskId);
  const { message } = incoming;
  if (!t) {
    // A task no longer live has ended: what it says here is in memory, whatever the task's age.
    const known = core.registry.ended(taskId);
    if (!known) throw taskNotFound(taskId);
    if (message.contextId && known.contextId && known.contextId !== message.contextId) {
      throw invalidParams(
        'message.contextId',
        `task ${taskId} belongs to context ${known.contextId}, not ${message.contextId}`,
      );
    }
    throw unsupportedOperation(`Task ${taskId} is already ${known.state}; send a new message without taskId`, {
      taskId,
      state: known.state,
    });
  }
  if (message.contextId && t.contextId !== message.contextId) {
    throw invalidParams(
      'message.contextId',
      `task ${taskId} belongs to context ${t.contextId}, not ${message.contextId}`,
    );
  }
  if (!t.input || t.canceling || t.status.state !== 'TASK_STATE_INPUT_REQUIRED') {
    throw unsupportedOperation(
      `Task ${taskId} is ${t.status.state}; only a TASK_STATE_INPUT_REQUIRED task takes a follow-up message`,
      {
        taskId,
        state: t.status.state,
      },
    );
  }
  const text = messageText(message);
  if (t.payload + text.length > MAX_TASK_PAYLOAD) {
    throw invalidParams(
      'params.message',
      `task ${taskId} already took ${t.payload} characters of messages; one task takes at most ${MAX_TASK_PAYLOAD} in all (send a new message without taskId)`,
    );
  }
  t.payload += text.length;
  t.history.push(withIds(message, t.contextId, taskId));
  received(core, t, incoming, text);
  const settled = settledPromise(t);
  const input = t.input;
  t.waiting = 'resuming';
  core.registry.setStatus(t, 'TASK_STATE_WORKING');
  input.resolve(text);
  return { task: core.registry.toTask(t), settled };
}

export function acceptMessage(core: SessionCore, incoming: IncomingMessage): AcceptedMessage {
  const { message } = incoming;
  if (message.taskId) return resume(core, incoming, message.taskId);
  core.onTaskArrived();
  const id = newTaskId();
  const contextId = message.contextId || newContextId();
  const text = messageText(message);
  const t: LiveTask = {
    id,
    contextId,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp: isoNow() },
    history: [withIds(message, contextId, id)],
    text,
    // Every field a task takes later is there from the start (one object shape for every task).
    traceparent: incoming.traceparent || undefined,
    artifacts: undefined,
    startedAt: undefined,
    controller: new TaskAbort(),
    works: new Set(),
    waiting: 'queue',
    createdAt: Date.now(),
    usage: { turns: 0, tokensIn: 0, tokensOut: 0 },
    settlers: [],
    offset: core.trace.written,
    lostAtArrival: core.trace.lostLines,
    payload: text.length,
  };
  core.registry.add(t);
  received(core, t, incoming, text);
  const refusal = core.queue.refusal();
  if (refusal) {
    core.registry.setStatus(t, 'TASK_STATE_REJECTED', statusMessage(id, contextId, `task rejected: ${refusal}`));
    const task = core.registry.toTask(t);
    traceTask(core, t, { event_type: 'task_rejected', reason: refusal });
    endTask(core, t, 'rejected', 'TASK_STATE_REJECTED');
    return { task, settled: Promise.resolve(task) };
  }
  core.registry.emitStatus(t);
  const task = core.registry.toTask(t);
  const settled = settledPromise(t);
  const asMessage = core.executor.answersAsMessage?.(message, text) === true;
  core.queue.enqueue(id);
  // Start after the caller got its answer, so a listener added right away sees every event (a
  // resolved promise's continuation: Node's queueMicrotask makes an async resource for each call).
  void resolved.then(core.pump);
  return asMessage ? { task, settled, asMessage } : { task, settled };
}
