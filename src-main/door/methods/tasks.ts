import { taskNotFound } from '../../../src-shared/a2a';
import { registerMethod } from '../methods';
import { parseParams, taskIdParams } from '../params';

// GetTask and CancelTask.

registerMethod('GetTask', (ctx) => {
  const p = parseParams(taskIdParams, ctx.params);
  const task = ctx.session.getTask(p.id, p.historyLength);
  if (!task) throw taskNotFound(p.id);
  return task;
});

registerMethod('CancelTask', (ctx) => {
  const p = parseParams(taskIdParams, ctx.params);
  return ctx.session.cancelTask(p.id, 'client');
});
