import { taskNotFound } from '../../../src-shared/a2a';
import { registerMethod } from '../methods';
import { withHistory } from '../../runtime/tasks';
import { DEFAULT_HISTORY_LENGTH, parseParams, taskIdParams } from '../params';

// GetTask and CancelTask.

registerMethod('GetTask', (ctx) => {
  const p = parseParams(taskIdParams, ctx.params);
  const task = ctx.session.getTask(p.id, p.historyLength ?? DEFAULT_HISTORY_LENGTH);
  if (!task) throw taskNotFound(p.id);
  return task;
});

registerMethod('CancelTask', async (ctx) => {
  const p = parseParams(taskIdParams, ctx.params);
  return withHistory(await ctx.session.cancelTask(p.id, 'client'), p.historyLength ?? DEFAULT_HISTORY_LENGTH);
});
