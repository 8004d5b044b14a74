import { taskNotFound } from '../../../src-shared/a2a';
import type { MethodHandler } from '../methods';
import { withHistory } from '../../runtime/tasks';
import { DEFAULT_HISTORY_LENGTH, parseParams, taskIdParams } from '../params';

// GetTask and CancelTask.

export const getTask: MethodHandler = async (ctx) => {
  const p = parseParams(taskIdParams, ctx.params);
  // A task no longer kept in memory is read from the records off the main thread.
  const task = await ctx.session.readTask(p.id, p.historyLength ?? DEFAULT_HISTORY_LENGTH);
  if (!task) throw taskNotFound(p.id);
  return task;
};

export const cancelTask: MethodHandler = async (ctx) => {
  const p = parseParams(taskIdParams, ctx.params);
  return withHistory((await ctx.session.cancelTask(p.id, 'client')).task, p.historyLength ?? DEFAULT_HISTORY_LENGTH);
};
