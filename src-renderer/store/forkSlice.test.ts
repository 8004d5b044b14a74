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
      if (cmd === 'sessions.fork')
        return { sessionId: 'ses_fork', taskId: 'tsk_f', state: 'TASK_STATE_COMPLETED', answer: 'done' };
      if (cmd === 'sessions.forkOptions')
        return {
          message: 'Plan a picnic',
          lastTurn: 3,
          delegations: [
            { turn: 1, callId: 'c1', to: 'writer', text: 'Draft it.' },
            { turn: 2, callId: 'c2', to: 'writer', text: 'Polish it.' },
          ],
        };
      return undefined;
    },
    on: () => () => undefined,
  } as unknown as CoreClient;
}

it('sends the message only when edited, then opens the fork', async () => {
  const calls: { cmd: CommandName; input: unknown }[] = [];
  setCoreClient(fakeCore(calls));
  const opened: string[] = [];
  useStudio.setState({
    loadSessions: async () => {},
    openSession: async (id: string) => void opened.push(id),
    showSessions: () => {},
  });
  const s = useStudio.getState();
  await s.openForkForm({ sessionId: 'ses_a', taskId: 'tsk_1', turn: 2, lastTurn: 3, recorded: 'Plan a picnic' });
  expect(useStudio.getState().forkDraft).toMatchObject({ message: 'Plan a picnic', driver: 'real', busy: false });
  await s.startFork();
  expect(calls.map((c) => c.cmd)).toEqual(['sessions.forkOptions', 'sessions.fork']);
  expect(calls[1].input).toEqual({ sessionId: 'ses_a', taskId: 'tsk_1', turn: 2, driver: 'real' });
  expect(useStudio.getState().forkDraft).toBeNull();
  expect(opened).toEqual(['ses_fork']);

  await s.openForkForm({ sessionId: 'ses_a', taskId: 'tsk_1', turn: 1, lastTurn: 3, recorded: 'Plan a picnic' });
  s.editForkDraft({ message: 'Plan a beach day', driver: 'rehearsal' });
  await useStudio.getState().startFork();
  expect(calls[3].input).toEqual({
    sessionId: 'ses_a',
    taskId: 'tsk_1',
    turn: 1,
    driver: 'rehearsal',
    message: 'Plan a beach day',
  });
});

it('sends the replayed delegations edited in the form, and none the fork does not replay', async () => {
  const calls: { cmd: CommandName; input: unknown }[] = [];
  setCoreClient(fakeCore(calls));
  useStudio.setState({ loadSessions: async () => {}, openSession: async () => {}, showSessions: () => {} });
  const s = useStudio.getState();
  await s.openForkForm({ sessionId: 'ses_a', taskId: 'tsk_1', turn: 2, lastTurn: 3, recorded: 'Plan a picnic' });
  expect(useStudio.getState().forkDraft?.delegations?.map((d) => [d.callId, d.recorded])).toEqual([
    ['c1', 'Draft it.'],
    ['c2', 'Polish it.'],
  ]);
  s.editForkDraft({ delegation: { callId: 'c1', text: 'Draft a haiku.' } });
  s.editForkDraft({ delegation: { callId: 'c2', text: 'Polish the haiku.' } });
  await useStudio.getState().startFork();
  // Turn 2 is the fork's own: only turn 1's delegation replays, so only its edit goes.
  expect(calls[1].input).toEqual({
    sessionId: 'ses_a',
    taskId: 'tsk_1',
    turn: 2,
    driver: 'real',
    delegations: [{ callId: 'c1', text: 'Draft a haiku.' }],
  });
});
