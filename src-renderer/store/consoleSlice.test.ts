import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Task } from '../../src-shared/a2a';
import { CoreError, type CommandName, type CoreClient } from '../../src-shared/contract';
import { setCoreClient } from './client';
import { conversationKey, conversationsOf, entriesOfConversation } from './consoleSlice';
import { MAX_CONVERSATIONS, MAX_ENTRIES } from './conversations';
import { foldTaskUpdates } from './tasksSlice';
import { useStudio } from './index';

// The console as a conversation: the contextId the first task got is kept for the next message,
// New conversation starts another, each capsule keeps its own, replies continue their task, and
// nothing is polled: progress is task.updated's.

const initial = useStudio.getState();
let calls: { cmd: CommandName; input: Record<string, unknown> }[] = [];
let seq = 0;
let answer: (input: Record<string, unknown>) => Promise<Task> | Task;

const task = (
  contextId: string,
  state: Task['status']['state'] = 'TASK_STATE_SUBMITTED',
  id = `tsk_${++seq}`,
): Task => ({ id, contextId, status: { state } });

function install(): void {
  const client: CoreClient = {
    async invoke(cmd, input) {
      calls.push({ cmd, input: input as Record<string, unknown> });
      if (cmd === 'task.get')
        return {
          id: (input as { taskId: string }).taskId,
          contextId: 'c',
          status: { state: 'TASK_STATE_COMPLETED' },
        } as never;
      if (cmd !== 'task.send') throw new CoreError('unknown_command', cmd);
      return (await answer(input as Record<string, unknown>)) as never;
    },
    on: () => () => undefined,
    dispose: () => undefined,
  };
  setCoreClient(client);
}

beforeEach(() => {
  useStudio.setState(initial, true);
  useStudio.setState({ workspace: { dir: '/ws', name: 'ws', issues: [] }, consoleTarget: 'writer' } as never);
  calls = [];
  answer = (input) => task((input.contextId as string) ?? `ctx_${++seq}`);
  install();
});
afterEach(() => {
  setCoreClient(null);
  vi.useRealTimers();
});

const current = (capsuleId = 'writer') => {
  const s = useStudio.getState();
  return s.consoleConversations.find((c) => c.id === s.consoleCurrent[conversationKey('/ws', capsuleId)]);
};
const sends = () => calls.filter((c) => c.cmd === 'task.send').map((c) => c.input);

describe('console conversations', () => {
  it('keeps the context of the first task for the messages after it, even one sent before the first was answered', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    answer = async (input) => {
      if (!input.contextId) await gate;
      return task((input.contextId as string) ?? 'ctx_first');
    };
    const first = useStudio.getState().sendMessage('hello');
    const second = useStudio.getState().sendMessage('and more');
    release();
    await Promise.all([first, second]);
    expect(sends().map((i) => i.contextId)).toEqual([undefined, 'ctx_first']);
    expect(current()?.contextId).toBe('ctx_first');
    const s = useStudio.getState();
    expect(entriesOfConversation(s.consoleEntries, current()?.id).map((e) => e.text)).toEqual(['hello', 'and more']);
    expect(s.consoleEntries.every((e) => e.taskId)).toBe(true);
  });

  it('starts another context on New conversation, and continues an earlier one when it is opened again', async () => {
    await useStudio.getState().sendMessage('one');
    const old = current()!;
    useStudio.getState().newConversation('writer');
    expect(current()).toBeUndefined();
    await useStudio.getState().sendMessage('two');
    expect(sends()[1].contextId).toBeUndefined();
    expect(current()!.contextId).not.toBe(old.contextId);
    expect(entriesOfConversation(useStudio.getState().consoleEntries, current()!.id).map((e) => e.text)).toEqual([
      'two',
    ]);

    useStudio.getState().openConversation('writer', old.id);
    await useStudio.getState().sendMessage('three');
    expect(sends()[2].contextId).toBe(old.contextId);
    expect(conversationsOf(useStudio.getState().consoleConversations, '/ws', 'writer')).toHaveLength(2);
  });

  it('keeps a conversation per capsule', async () => {
    await useStudio.getState().sendMessage('to the writer');
    useStudio.getState().setConsoleTarget('researcher');
    await useStudio.getState().sendMessage('to the researcher');
    expect(sends().map((i) => [i.capsuleId, i.contextId])).toEqual([
      ['writer', undefined],
      ['researcher', undefined],
    ]);
    expect(current('writer')!.contextId).not.toBe(current('researcher')!.contextId);
    useStudio.getState().setConsoleTarget('writer');
    await useStudio.getState().sendMessage('writer again');
    expect(sends()[2].contextId).toBe(current('writer')!.contextId);
  });

  it('is bounded: the oldest message goes past MAX_ENTRIES, the oldest conversation (with its messages) past MAX_CONVERSATIONS', async () => {
    for (let i = 0; i < MAX_ENTRIES + 3; i++) await useStudio.getState().sendMessage(`m${i}`);
    let s = useStudio.getState();
    expect(s.consoleEntries).toHaveLength(MAX_ENTRIES);
    expect(s.consoleEntries[0].text).toBe('m3');

    for (let i = 0; i < MAX_CONVERSATIONS; i++) {
      useStudio.getState().newConversation('writer');
      await useStudio.getState().sendMessage(`c${i}`);
    }
    s = useStudio.getState();
    const mine = conversationsOf(s.consoleConversations, '/ws', 'writer');
    expect(mine).toHaveLength(MAX_CONVERSATIONS);
    expect(s.consoleEntries.some((e) => e.text === 'm199')).toBe(false); // the first conversation went, with its messages
    expect(s.consoleEntries.map((e) => e.text)).toEqual(Array.from({ length: MAX_CONVERSATIONS }, (_, i) => `c${i}`));
  });

  it('sends data and files with the text, and hands refused data back with its problems', async () => {
    await useStudio.getState().sendMessage({
      text: '',
      data: { rows: 1 },
      files: [{ name: 'a.csv', mediaType: 'text/csv', bytes: 'YQ==', size: 1 }],
    });
    expect(sends()[0]).toMatchObject({
      capsuleId: 'writer',
      data: { rows: 1 },
      files: [{ name: 'a.csv', mediaType: 'text/csv', bytes: 'YQ==' }],
    });
    expect(sends()[0].text).toBeUndefined();
    expect(useStudio.getState().consoleEntries[0]).toMatchObject({
      data: '{"rows":1}',
      files: [{ name: 'a.csv', size: 1 }],
    });

    answer = () => {
      throw new CoreError('invalid_input', 'data.priority: must be integer', {
        problems: [{ field: 'priority', message: 'must be integer' }],
      });
    };
    const outcome = await useStudio.getState().sendMessage({ text: 'go', data: { priority: 'x' } });
    expect(outcome).toEqual({
      ok: false,
      error: 'data.priority: must be integer',
      problems: [{ field: 'priority', message: 'must be integer' }],
    });
    expect(useStudio.getState().consoleEntries[1].error).toBe('data.priority: must be integer');
  });

  it('answers a task waiting for input with its taskId and contextId, and says why a reply failed', async () => {
    const waiting = task('ctx_9', 'TASK_STATE_INPUT_REQUIRED', 'tsk_wait');
    useStudio.setState({ tasks: { tsk_wait: { capsuleId: 'writer', task: waiting } } });
    answer = (input) => task(input.contextId as string, 'TASK_STATE_WORKING', input.taskId as string);
    expect(await useStudio.getState().replyToTask('writer', waiting, 'green')).toBeUndefined();
    expect(sends()[0]).toEqual({
      capsuleId: 'writer',
      taskId: 'tsk_wait',
      contextId: 'ctx_9',
      text: 'green',
      returnImmediately: true,
    });
    // The reply's answer writes no task: the task's new state is the next task.updated (one fact, once).
    expect(useStudio.getState().tasks.tsk_wait.task).toBe(waiting);

    answer = () => {
      throw new CoreError('door_error', 'Task is not waiting for input');
    };
    expect(await useStudio.getState().replyToTask('writer', waiting, 'again')).toBe('Task is not waiting for input');
  });

  it('polls nothing: the task moves on task.updated alone, each event replacing the last', async () => {
    vi.useFakeTimers();
    await useStudio.getState().sendMessage('hello');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.map((c) => c.cmd)).toEqual(['task.send']);
    const id = useStudio.getState().consoleEntries[0].taskId!;
    const working: Task = { id, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
    const done: Task = {
      id,
      contextId: 'c',
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ artifactId: 'response', parts: [{ text: 'Hi.' }] }],
    };
    useStudio.setState((s) => foldTaskUpdates(s, [{ capsuleId: 'writer', sessionId: 's', task: working }]));
    useStudio.setState((s) => foldTaskUpdates(s, [{ capsuleId: 'writer', sessionId: 's', task: done }]));
    expect(useStudio.getState().tasks[id]).toEqual({ capsuleId: 'writer', sessionId: 's', task: done });
  });

  it("the send's answer never replaces what an event already brought (one fact, once)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const submitted = task('ctx_1', 'TASK_STATE_SUBMITTED', 'tsk_raced');
    answer = async () => (await gate, submitted);
    const sent = useStudio.getState().sendMessage('hello');
    const done: Task = { ...submitted, status: { state: 'TASK_STATE_COMPLETED' } };
    useStudio.setState((s) => foldTaskUpdates(s, [{ capsuleId: 'writer', sessionId: 's', task: done }]));
    release();
    await sent;
    expect(useStudio.getState().tasks.tsk_raced.task).toEqual(done);
  });

  it('catches up once after a reconnect: each unfinished task is read, finished ones are not', async () => {
    useStudio.setState({
      capsules: { writer: { id: 'writer' } } as never,
      tasks: {
        a: { capsuleId: 'writer', task: task('c', 'TASK_STATE_WORKING', 'a') },
        b: { capsuleId: 'writer', task: task('c', 'TASK_STATE_COMPLETED', 'b') },
        c: { capsuleId: 'gone', task: task('c', 'TASK_STATE_WORKING', 'c') },
      },
    });
    await useStudio.getState().catchUpTasks();
    expect(calls.map((c) => [c.cmd, c.input.taskId])).toEqual([['task.get', 'a']]);
    expect(useStudio.getState().tasks.a.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
