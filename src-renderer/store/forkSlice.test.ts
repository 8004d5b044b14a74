import { afterEach, expect, it } from 'vitest';
import type { CommandName, CoreClient } from '../../src-shared/contract';
import { setCoreClient, useStudio } from './index';

// The fork form: the message goes to the core only when it was edited, and once the fork has
// answered, the form closes and the browser opens the fork's session.

const initial = useStudio.getState();
afterEach(() => {
  useStudio.setState(initial, true);
  setCoreClient(null);
});

function fakeCore(calls: { cmd: CommandName; input: unknown }[]): CoreClient {
  return {
    invoke: async (cmd: CommandName, input: unknown) => {
      calls.push({ cmd, input });
      if (cmd === 'sessions.fork') return { sessionId: 'ses_fork', taskId: 'tsk_f', state: 'TASK_STATE_COMPLETED', answer: 'done' };
      return undefined;
    },
    on: () => () => undefined,
  } as unknown as CoreClient;
}

it('sends the message only when edited, then opens the fork', async () => {
  const calls: { cmd: CommandName; input: unknown }[] = [];
  setCoreClient(fakeCore(calls));
  const opened: string[] = [];
  useStudio.setState({ loadSessions: async () => {}, openSession: async (id: string) => void opened.push(id), showSessions: () => {} });
  const s = useStudio.getState();
  s.openForkForm({ sessionId: 'ses_a', taskId: 'tsk_1', turn: 2, lastTurn: 3, recorded: 'Plan a picnic' });
  expect(useStudio.getState().forkDraft).toMatchObject({ message: 'Plan a picnic', driver: 'real', busy: false });
  await s.startFork();
  expect(calls[0]).toEqual({ cmd: 'sessions.fork', input: { sessionId: 'ses_a', taskId: 'tsk_1', turn: 2, driver: 'real' } });
  expect(useStudio.getState().forkDraft).toBeNull();
  expect(opened).toEqual(['ses_fork']);

  s.openForkForm({ sessionId: 'ses_a', taskId: 'tsk_1', turn: 1, lastTurn: 3, recorded: 'Plan a picnic' });
  s.editForkDraft({ message: 'Plan a beach day', driver: 'rehearsal' });
  await useStudio.getState().startFork();
  expect(calls[1].input).toEqual({ sessionId: 'ses_a', taskId: 'tsk_1', turn: 1, driver: 'rehearsal', message: 'Plan a beach day' });
});
