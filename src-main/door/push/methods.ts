import {
  invalidParams,
  isTerminal,
  taskNotFound,
  type Task,
  type TaskPushNotificationConfig,
  type TaskState,
} from '../../../src-shared/a2a';
import type { Session } from '../../runtime/api';
import type { MethodHandler } from '../methods';
import { statusEventOf } from '../stream/task-stream';
import { pushOf } from './registry';
import { MAX_CONFIGS_PER_TASK, parseConfigRef, parsePushConfig } from './validate';

// The four push-config methods, and the same config inline in SendMessage/SendStreamingMessage.

/** The task's state; throws -32001 for a task the session never had. Reads no file. */
function requireTask(session: Session, taskId: string): TaskState {
  const state = session.taskState(taskId);
  if (!state) throw taskNotFound(taskId);
  return state;
}

/**
 * A config on a task still running is stored at once: every later update follows through the
 * session's push listener. One made on a finished task gets exactly one final update, to it alone:
 * the task's status is read first (off the main thread when it is no longer kept in memory; a
 * finished task never changes), then the config is stored and the update sent.
 */
export const createPushConfig: MethodHandler = async (ctx) => {
  const config = parsePushConfig(ctx.params);
  const taskId = config.taskId;
  if (!taskId) throw invalidParams('params.taskId', 'taskId is required');
  requireTask(ctx.session, taskId); // an unknown task is refused before the session's push is made
  const push = pushOf(ctx.session);
  await push.store.loaded;
  // The state as it is now, in the same turn as the put: a task that ended meanwhile is finished.
  if (!isTerminal(requireTask(ctx.session, taskId))) return push.store.put(taskId, config);
  const task = await ctx.session.readTask(taskId, 0, false);
  if (!task) throw taskNotFound(taskId);
  const stored = push.store.put(taskId, config);
  push.delivery.deliverTo(stored, statusEventOf(task));
  return stored;
};

// The three below answer once the configs an earlier run of the session saved are read in.

export const getPushConfig: MethodHandler = async (ctx) => {
  const { taskId, id } = parseConfigRef(ctx.params, true);
  requireTask(ctx.session, taskId);
  const { store } = pushOf(ctx.session);
  await store.loaded;
  const config = store.get(taskId, id!);
  if (!config) throw taskNotFound(taskId);
  return config;
};

export const listPushConfigs: MethodHandler = async (ctx) => {
  const { taskId } = parseConfigRef(ctx.params, false);
  requireTask(ctx.session, taskId);
  const { store } = pushOf(ctx.session);
  await store.loaded;
  return { configs: store.list(taskId), nextPageToken: '' };
};

// Idempotent, as the spec has it: deleting a config that is already gone succeeds.
export const deletePushConfig: MethodHandler = async (ctx) => {
  const { taskId, id } = parseConfigRef(ctx.params, true);
  requireTask(ctx.session, taskId);
  const { store } = pushOf(ctx.session);
  await store.loaded;
  store.delete(taskId, id!);
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
