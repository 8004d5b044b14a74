import { afterEach, expect, it } from 'vitest';
import { CoreError, type CommandName, type CoreClient, type InvokeOptions } from '../../src-shared/contract';
import { setCoreClient, useStudio } from './index';
import { cancelLongCommand, currentLongCommand } from './longCommand';

// The sessions browser's loads are long commands: a slow one shows in the bar and Esc stops it
// (the core is told through the signal), the browser says it stopped and is ready for the next
// load; a load a newer filter replaces is stopped without a word.

const initial = useStudio.getState();
afterEach(() => {
  useStudio.setState(initial, true);
  setCoreClient(null);
});

/** A core whose sessions.list answers only what `answer` says, and rejects as the call table does once aborted. */
function slowCore(seen: { cmd: CommandName; signal?: AbortSignal }[], answer: () => boolean): CoreClient {
  return {
    invoke: (cmd: CommandName, _input: unknown, opts?: InvokeOptions) => {
      seen.push({ cmd, signal: opts?.signal });
      return new Promise((ok, fail) => {
        opts?.signal?.addEventListener('abort', () => fail(new CoreError('canceled', `${cmd} was canceled.`)));
        if (answer()) ok({ sessions: [], store: { available: true } });
      });
    },
    on: () => () => undefined,
  } as unknown as CoreClient;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

it('Esc on a slow sessions load aborts its call, says it stopped, and the next load answers', async () => {
  const seen: { cmd: CommandName; signal?: AbortSignal }[] = [];
  let answering = false;
  setCoreClient(slowCore(seen, () => answering));
  const load = useStudio.getState().loadSessions();
  await until(() => currentLongCommand()?.label === 'Reading the sessions');
  expect(useStudio.getState().sessionsLoading).toBe(true);
  expect(cancelLongCommand()).toBe(true);
  await load;
  expect(seen[0].signal?.aborted).toBe(true);
  const s = useStudio.getState();
  expect(s.sessionsLoading).toBe(false);
  expect(s.notices.at(-1)).toMatchObject({ level: 'info', message: 'Stopped reading the sessions.' });

  answering = true;
  await useStudio.getState().loadSessions();
  expect(useStudio.getState().sessionsLoading).toBe(false);
  expect(currentLongCommand()).toBeNull();
});

it('a newer filter stops the list load it replaces, without a notice', async () => {
  const seen: { cmd: CommandName; signal?: AbortSignal }[] = [];
  let calls = 0;
  setCoreClient(slowCore(seen, () => ++calls > 1));
  const notices = useStudio.getState().notices.length;
  const first = useStudio.getState().loadSessions();
  await useStudio.getState().setSessionFilter({ capsule: 'writer' });
  await first;
  expect(seen[0].signal?.aborted).toBe(true);
  expect(useStudio.getState().notices.length).toBe(notices);
  expect(useStudio.getState().sessionsLoading).toBe(false);
});
