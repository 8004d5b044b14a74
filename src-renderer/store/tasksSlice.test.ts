import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src-shared/a2a';
import { CoreError, type CoreClient } from '../../src-shared/contract';
import { setCoreClient } from './client';
import { useStudio } from './index';

// A task's state reaches the store once, as task.updated: Cancel's answer brings the residue (and
// any refusal) but leaves the task as the events hold it, and the task list adds the tasks the
// page has not heard of without rolling back one it has.

const initial = useStudio.getState();
const t = (id: string, state: Task['status']['state']): Task => ({ id, contextId: 'c', status: { state } });
let replies: Record<string, unknown> = {};

beforeEach(() => {
  useStudio.setState(initial, true);
  replies = {};
  const client: CoreClient = {
    async invoke(cmd) {
      if (!(cmd in replies)) throw new CoreError('unknown_command', cmd);
      return replies[cmd] as never;
    },
    on: () => () => undefined,
    dispose: () => undefined,
  };
  setCoreClient(client);
});
afterEach(() => setCoreClient(null));

describe('tasks in the store', () => {
  it("Cancel keeps the door's answer beside the task and leaves the task's state to task.updated", async () => {
    const working = t('tsk_a', 'TASK_STATE_WORKING');
    useStudio.setState({ tasks: { tsk_a: { capsuleId: 'writer', sessionId: 's', task: working } } });
    const residue = [{ kind: 'process', pid: 42, command: 'sleep 100', status: 'detached' }];
    replies['task.cancel'] = { task: t('tsk_a', 'TASK_STATE_CANCELED'), residue };
    await useStudio.getState().cancelTask('writer', 'tsk_a');
    expect(useStudio.getState().cancelAnswers.tsk_a).toEqual({ task: t('tsk_a', 'TASK_STATE_CANCELED'), residue });
    expect(useStudio.getState().tasks.tsk_a.task).toBe(working);
  });

  it('the task list adds unknown tasks and never replaces one the events keep current', async () => {
    const done = t('tsk_a', 'TASK_STATE_COMPLETED');
    useStudio.setState({
      capsules: { writer: { id: 'writer', sessionId: 's' } } as never,
      tasks: { tsk_a: { capsuleId: 'writer', sessionId: 's', task: done } },
    });
    replies['task.list'] = [t('tsk_a', 'TASK_STATE_WORKING'), t('tsk_b', 'TASK_STATE_SUBMITTED')];
    await useStudio.getState().loadTasks('writer');
    const { tasks } = useStudio.getState();
    expect(tasks.tsk_a.task).toBe(done);
    expect(tasks.tsk_b).toEqual({ capsuleId: 'writer', sessionId: 's', task: t('tsk_b', 'TASK_STATE_SUBMITTED') });
  });
});
