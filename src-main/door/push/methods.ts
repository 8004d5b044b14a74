import {
  invalidParams,
  isTerminal,
  taskNotFound,
  type Task,
  type TaskPushNotificationConfig,
} from '../../../src-shared/a2a';
import type { Session } from '../../runtime/api';
import type { MethodHandler } from '../methods';
import { statusEventOf } from '../stream/task-stream';
import { pushOf } from './registry';
import { MAX_CONFIGS_PER_TASK, parseConfigRef, parsePushConfig } from './validate';

// The four push-config methods, and the same config inline in SendMessage/SendStreamingMessage.

function requireTask(session: Session, taskId: string): Task {
  const task = session.getTask(taskId, 0);
  if (!task) throw taskNotFound(taskId);
  return task;
}

/** A config made on a finished task gets exactly one final update, to it alone. */
function afterCreate(session: Session, config: TaskPushNotificationConfig, task: Task): void {
  if (isTerminal(task.status.state)) pushOf(session).delivery.deliverTo(config, statusEventOf(task));
}

export const createPushConfig: MethodHandler = (ctx) => {
  const config = parsePushConfig(ctx.params);
  if (!config.taskId) throw invalidParams('params.taskId', 'taskId is required');
  const task = requireTask(ctx.session, config.taskId);
  const stored = pushOf(ctx.session).store.put(config.taskId, config);
  afterCreate(ctx.session, stored, task);
  return stored;
};

export const getPushConfig: MethodHandler = (ctx) => {
  const { taskId, id } = parseConfigRef(ctx.params, true);
  requireTask(ctx.session, taskId);
  const config = pushOf(ctx.session).store.get(taskId, id!);
  if (!config) throw taskNotFound(taskId);
  return config;
};

export const listPushConfigs: MethodHandler = (ctx) => {
  const { taskId } = parseConfigRef(ctx.params, false);
  requireTask(ctx.session, taskId);
  return { configs: pushOf(ctx.session).store.list(taskId), nextPageToken: '' };
};

// Idempotent, as the spec has it: deleting a config that is already gone succeeds.
export const deletePushConfig: MethodHandler = (ctx) => {
  const { taskId, id } = parseConfigRef(ctx.params, true);
  requireTask(ctx.session, taskId);
  pushOf(ctx.session).store.delete(taskId, id!);
  return {};
};

const INLINE_FIELD = 'params.configuration.taskPushNotificationConfig';

/**
 * The inline config of SendMessage/SendStreamingMessage (alias configuration.pushNotificationConfig),
 * validated before the message is taken so a bad one starts nothing. Undefined when none was sent.
 */
export function inlinePushConfig(session: Session, params: unknown): TaskPushNotificationConfig | undefined {
  const p = (params ?? {}) as { configuration?: Record<string, unknown>; message?: { taskId?: unknown } };
  const c = p.configuration;
  const raw = c?.taskPushNotificationConfig ?? c?.task_push_notification_config ?? c?.pushNotificationConfig;
  if (raw === undefined || raw === null) return undefined;
  const config = parsePushConfig(raw, INLINE_FIELD);
  // A follow-up message names its task: that task must still have room for one more config.
  const taskId = typeof p.message?.taskId === 'string' ? p.message.taskId : undefined;
  if (taskId) {
    const existing = pushOf(session).store.list(taskId);
    if (existing.length >= MAX_CONFIGS_PER_TASK && !existing.some((e) => e.id === config.id)) {
      throw invalidParams(
        INLINE_FIELD,
        `task ${taskId} already has ${MAX_CONFIGS_PER_TASK} push configs (the most a task keeps)`,
      );
    }
  }
  return config;
}

/**
 * Registers an inline config on the task the message made (or resumed). The task's first
 * update went out before the config existed, so the config gets the task's status as it
 * stands now; every later update follows through the session's push listener.
 */
export function attachInlinePushConfig(session: Session, config: TaskPushNotificationConfig, task: Task): void {
  const stored = pushOf(session).store.put(task.id, { ...config, taskId: task.id });
  pushOf(session).delivery.deliverTo(stored, statusEventOf(task));
}
