import { afterEach, expect, it } from 'vitest';
import type { CommandName, CoreClient } from '../../src-shared/contract';
import { setCoreClient, useStudio } from './index';

// Actions whose code loads on first call: the first call loads it and does the work, and the real
// action then stands in the store; an action something else put there (a test's) stays.

const initial = useStudio.getState();
afterEach(() => {
  useStudio.setState(initial, true);
  setCoreClient(null);
});

function fakeCore(calls: CommandName[]): CoreClient {
  return {
    invoke: async (cmd: CommandName) => {
      calls.push(cmd);
      if (cmd === 'sessions.list') return { sessions: [{ id: 'ses_1' }], store: null };
      if (cmd === 'sessions.compare') return { a: 'ses_1', b: 'ses_2' };
      return undefined;
    },
    on: () => () => undefined,
  } as unknown as CoreClient;
}

it('works on its first call, then is the real action', async () => {
  const calls: CommandName[] = [];
  setCoreClient(fakeCore(calls));
  const standIn = useStudio.getState().loadSessions;
  await standIn();
  expect(calls).toEqual(['sessions.list']);
  expect(useStudio.getState().sessionList).toEqual([{ id: 'ses_1' }]);
  expect(useStudio.getState().sessionsLoading).toBe(false);
  const real = useStudio.getState().loadSessions;
  expect(real).not.toBe(standIn);
  // The loaded group's other actions took their places too, and the stand-in still calls through.
  expect(useStudio.getState().openSession).not.toBe(initial.openSession);
  await standIn();
  expect(calls).toEqual(['sessions.list', 'sessions.list']);
});

it('leaves an action that was replaced meanwhile in its place', async () => {
  setCoreClient(fakeCore([]));
  const mine = async () => {};
  useStudio.setState({ loadFamily: mine });
  await useStudio.getState().compareSessions('ses_1', 'ses_2');
  expect(useStudio.getState().comparison).toEqual({ a: 'ses_1', b: 'ses_2' });
  expect(useStudio.getState().loadFamily).toBe(mine);
  expect(useStudio.getState().startFork).not.toBe(initial.startFork);
});
