import { afterEach, expect, it } from 'vitest';
import { startSession } from '../launch';
import type { Session, SessionBreakpoints } from '../runtime';
import { rehearsal, rpc, scene, traceOf, userMessage, waitFor, type Scene } from '../runtime/tools/formation.fixture';
import { launchFork } from '../workspace/fork-run';
import { forkOptions, prepareFork, recordedSession } from './index';

// A fork from turn 2 replays turn 1, the delegation included: the fork names the delegations its
// replayed turns make, and what one of them sends can be edited for the fork. The worker gets the
// edited text; the edited task message is what the driver reads from turn 2 on.

let s: Scene | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** A worker quoting what it is asked, and a boss delegating to it once, then answering with its result. */
async function recorded(opts: { editAtBreakpoint?: string } = {}) {
  s = scene();
  const start = async (name: string, body: Record<string, unknown>): Promise<Session> => {
    const session = await startSession({ manifestPath: s!.manifest(name, body), env: s!.env, port: 0 });
    s!.sessions.push(session);
    return session;
  };
  const worker = await start('writer', {
    inference: rehearsal([{ turns: [{ text: 'writer got: {{task}}' }] }]),
    exports: { peer_tasks: { accept: true } },
  });
  const boss = await start('boss', {
    inference: rehearsal([
      {
        turns: [
          { tool_calls: [{ name: 'delegate_task', arguments: { to: worker.url, text: 'Draft a paragraph.' } }] },
          { text: 'done: {{task}} / {{tool_results}}' },
        ],
      },
    ]),
    capabilities: { network: { allow: [new URL(worker.url).host] } },
  });
  if (opts.editAtBreakpoint) {
    const bp: SessionBreakpoints = { turn: false, edges: [{ names: [], urls: [worker.url] }], timeoutMs: 60_000 };
    boss.setBreakpoints(bp);
  }
  const id = (
    await rpc(boss.url, 'SendMessage', { message: userMessage('write it'), configuration: { returnImmediately: true } })
  ).task.id as string;
  if (opts.editAtBreakpoint) {
    await waitFor('the pause', () => traceOf(boss).find((l) => l.event_type === 'breakpoint_hit'));
    boss.resumeBreakpoint(id, 'continue', opts.editAtBreakpoint);
  }
  await waitFor('the answer', () => boss.taskState(id) === 'TASK_STATE_COMPLETED');
  return { worker, boss, session: recordedSession(traceOf(boss)) };
}

const asked = (worker: Session) =>
  traceOf(worker)
    .filter((l) => l.event_type === 'a2a_task_received')
    .map((l) => l.text);

it('a fork at turn 2 names the delegation turn 1 replays, and the worker gets its edited text', async () => {
  const { worker, session } = await recorded();
  const task = session.tasks[0];
  const options = forkOptions(session, task.taskId);
  expect(options).toEqual({
    message: 'write it',
    lastTurn: 2,
    delegations: [{ turn: 1, callId: expect.any(String), to: worker.url, text: 'Draft a paragraph.' }],
  });
  const callId = options.delegations[0].callId;

  const prepared = prepareFork(session, {
    taskId: task.taskId,
    turn: 2,
    driver: 'real',
    env: s!.env,
    message: 'write it as a poem',
    delegations: [{ callId, text: 'Draft a haiku.' }],
  });
  const launched = await launchFork(prepared, { startSession, env: s!.env });
  s!.sessions.push(launched.session);
  const done = await launched.settled;
  expect(done.status.state).toBe('TASK_STATE_COMPLETED');
  expect(asked(worker)).toEqual(['Draft a paragraph.', 'Draft a haiku.']);
  // Turn 2 is the driver's: it reads the edited message and the worker's answer to the edited delegation.
  expect(done.artifacts?.[0]?.parts[0]?.text).toBe(
    `done: write it as a poem / - ${worker.url}: writer got: Draft a haiku.`,
  );
  const start = traceOf(launched.session).find((l) => l.event_type === 'session_start')!;
  expect(start.forked_from).toMatchObject({ turn: 2, edited: true, edited_delegations: 1 });
});

it('the rehearsal fork sends the edited delegation too; edits of a delegation the fork does not replay are refused', async () => {
  const { worker, session } = await recorded();
  const task = session.tasks[0];
  const callId = forkOptions(session, task.taskId).delegations[0].callId;
  const prepared = prepareFork(session, {
    taskId: task.taskId,
    turn: 2,
    driver: 'rehearsal',
    env: s!.env,
    delegations: [{ callId, text: 'Draft a limerick.' }],
  });
  const launched = await launchFork(prepared, { startSession, env: s!.env });
  s!.sessions.push(launched.session);
  await launched.settled;
  expect(asked(worker)).toEqual(['Draft a paragraph.', 'Draft a limerick.']);

  // At turn 1 nothing replays: the model makes its delegations afresh.
  expect(() =>
    prepareFork(session, {
      taskId: task.taskId,
      turn: 1,
      driver: 'real',
      env: s!.env,
      delegations: [{ callId, text: 'x' }],
    }),
  ).toThrow(/not a delegation the turns before turn 1 make/);
  expect(() =>
    prepareFork(session, {
      taskId: task.taskId,
      turn: 2,
      driver: 'real',
      env: s!.env,
      delegations: [{ callId: 'call_nope', text: 'x' }],
    }),
  ).toThrow(/call_nope is not a delegation/);
  expect(() =>
    prepareFork(session, {
      taskId: task.taskId,
      turn: 2,
      driver: 'real',
      env: s!.env,
      delegations: [{ callId, text: '  ' }],
    }),
  ).toThrow(/1 to 100000 characters/);
  expect(() => forkOptions(session, 'tsk_nope')).toThrow(/no task tsk_nope/);
});

it('a recording whose delegation was edited at a breakpoint forks with the edited text, and says what the model wrote', async () => {
  const { worker, session } = await recorded({ editAtBreakpoint: 'Draft a sonnet.' });
  const task = session.tasks[0];
  expect(forkOptions(session, task.taskId).delegations).toEqual([
    { turn: 1, callId: expect.any(String), to: worker.url, text: 'Draft a sonnet.', modelText: 'Draft a paragraph.' },
  ]);
  const launched = await launchFork(
    prepareFork(session, { taskId: task.taskId, turn: 2, driver: 'rehearsal', env: s!.env }),
    { startSession, env: s!.env },
  );
  s!.sessions.push(launched.session);
  await launched.settled;
  expect(asked(worker)).toEqual(['Draft a sonnet.', 'Draft a sonnet.']);
});
