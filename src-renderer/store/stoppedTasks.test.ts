import { describe, expect, it } from 'vitest';
import { answerText } from '../../src-shared/a2a';
import type { SessionTaskView } from '../../src-shared/contract';
import { firstUserText } from '../features/inspector/TaskRow';
import { taskOfRecord } from './stoppedTasks';

const view = (over: Partial<SessionTaskView>): SessionTaskView => ({
  id: 'tsk_1',
  ord: 0,
  state: 'TASK_STATE_COMPLETED',
  interrupted: false,
  text: 'Write about otters.',
  answer: 'Otters hold hands.',
  failure: null,
  turns: 1,
  tokensIn: 1,
  tokensOut: 1,
  startedAt: Date.UTC(2026, 0, 1, 10, 0, 0),
  endedAt: Date.UTC(2026, 0, 1, 10, 0, 5),
  durationMs: 5000,
  ...over,
});

describe('a recorded task as the Tasks tab draws it', () => {
  it('asks what was asked, answers what was answered, and ends when it ended', () => {
    const task = taskOfRecord(view({}));
    expect(firstUserText(task)).toBe('Write about otters.');
    expect(answerText(task)).toBe('Otters hold hands.');
    expect(task.status).toEqual({ state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T10:00:05.000Z' });
  });

  it('a failed task says why, and a task with nothing recorded shows nothing', () => {
    expect(answerText(taskOfRecord(view({ state: 'TASK_STATE_FAILED', answer: null, failure: 'no key' })))).toBe(
      'no key',
    );
    const bare = taskOfRecord(view({ text: null, answer: null, startedAt: null, endedAt: null }));
    expect(bare.history).toEqual([]);
    expect(bare.artifacts).toEqual([]);
    expect(bare.status.timestamp).toBeUndefined();
  });
});

describe("a stopped capsule's Tasks tab", () => {
  it('reads the session its record names, by id, never a search by capsule name (another workspace may share the name)', async () => {
    const { setCoreClient } = await import('./client');
    const { useStudio } = await import('./index');
    const initial = useStudio.getState();
    const calls: { cmd: string; input: unknown }[] = [];
    const sessionId = `ses_${'a'.repeat(32)}`;
    setCoreClient({
      invoke: async (cmd: string, input: unknown) => {
        calls.push({ cmd, input });
        if (cmd === 'sessions.get') return { tasks: [view({ id: 'tsk_9' })] };
        throw new Error(`unexpected ${cmd}`);
      },
      on: () => () => undefined,
    } as never);
    try {
      useStudio.setState({
        capsules: {
          writer: {
            id: 'writer',
            name: 'writer',
            state: 'stopped',
            lastTask: { taskId: 'tsk_9', state: 'TASK_STATE_COMPLETED', text: 'x', sessionId },
          },
        } as never,
        tasks: {},
      });
      await useStudio.getState().loadStoppedTasks('writer');
      expect(calls).toEqual([{ cmd: 'sessions.get', input: { sessionId } }]);
      expect(useStudio.getState().tasks.tsk_9).toMatchObject({ capsuleId: 'writer', sessionId });
    } finally {
      setCoreClient(null);
      useStudio.setState(initial, true);
    }
  });
});
