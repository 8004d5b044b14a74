import { afterEach, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';

// "Fork from here" in the Studio: the example formation's run is forked at a turn with an edited
// message; the fork runs beside the formation (its delegations reach the running workers), knows
// where it came from, shows in the family, and compares with its origin side by side.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

/** The example formation launched and its coordinator asked to plan a picnic: the run to fork. */
async function picnicRun() {
  studio = await createTestStudio();
  const { core } = studio;
  expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
  const task = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
  const origin = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === 'coordinator')!.sessionId!;
  return { core, task, origin };
}

it('forks a recorded task at a turn, lists it in the family and compares it with its origin', async () => {
  const { core, task, origin } = await picnicRun();

  const fork = await core.invoke('sessions.fork', {
    sessionId: origin,
    taskId: task.id,
    turn: 2,
    message: 'Plan a beach day',
    driver: 'real',
  });
  expect(fork.state).toBe('TASK_STATE_COMPLETED');
  expect(fork.sessionId).not.toBe(origin);
  // The formation's coordinator still runs its own session.
  expect((await core.invoke('formation.get', {})).capsules.find((c) => c.id === 'coordinator')!.sessionId).toBe(origin);

  const listed = (await core.invoke('sessions.list', {})).sessions.find((s) => s.id === fork.sessionId)!;
  expect(listed.forkedFrom).toEqual({ sessionId: origin, taskId: task.id, turn: 2 });
  expect((await core.invoke('sessions.family', { sessionId: origin })).forks.map((s) => s.id)).toEqual([
    fork.sessionId,
  ]);
  expect((await core.invoke('sessions.family', { sessionId: fork.sessionId })).ancestors.map((s) => s.id)).toEqual([
    origin,
  ]);

  const diff = await core.invoke('sessions.compare', { a: origin, b: fork.sessionId });
  const row = diff.tasks[0];
  expect(row.a!.taskId).toBe(task.id);
  expect([row.a!.message, row.b!.message]).toEqual(['Plan a picnic', 'Plan a beach day']);
  expect(row.differs).toContain('message');
  // Turn 1 was replayed from the recording (the same delegations); turn 2 came from the driver.
  expect(row.turns[0]).toMatchObject({ differs: [], b: { replayed: true } });
  expect(row.b!.delegations).toEqual(row.a!.delegations);
  expect(row.b!.answer).toBe(row.a!.answer);

  await expect(
    core.invoke('sessions.fork', { sessionId: origin, taskId: task.id, turn: 5, driver: 'real' }),
  ).rejects.toMatchObject({ code: 'invalid_input' });
  await expect(core.invoke('sessions.compare', { a: origin, b: origin })).rejects.toMatchObject({
    code: 'invalid_input',
  });
});

it('a fork at turn 2 lists the delegations turn 1 replays, and sends a delegation as edited in the fork', async () => {
  const { core, task, origin } = await picnicRun();

  const options = await core.invoke('sessions.forkOptions', { sessionId: origin, taskId: task.id });
  expect(options.message).toBe('Plan a picnic');
  const toResearcher = options.delegations.find((d) => d.to === 'researcher' && d.turn === 1)!;
  expect(toResearcher.text).toMatch(/^Find three facts/);

  const fork = await core.invoke('sessions.fork', {
    sessionId: origin,
    taskId: task.id,
    turn: 2,
    message: 'Plan a beach day',
    delegations: [{ callId: toResearcher.callId, text: 'Find three facts about beaches.' }],
    driver: 'real',
  });
  expect(fork.state).toBe('TASK_STATE_COMPLETED');
  const asked = (await core.invoke('task.list', { capsuleId: 'researcher' })).map(
    (t) => t.history?.[0]?.parts[0]?.text,
  );
  expect(asked).toContain('Find three facts about beaches.');
  const diff = await core.invoke('sessions.compare', { a: origin, b: fork.sessionId });
  expect(diff.tasks[0].differs).toContain('delegations');

  await expect(
    core.invoke('sessions.fork', {
      sessionId: origin,
      taskId: task.id,
      turn: 1,
      delegations: [{ callId: toResearcher.callId, text: 'x' }],
      driver: 'real',
    }),
  ).rejects.toMatchObject({ code: 'invalid_input' });
  await expect(core.invoke('sessions.forkOptions', { sessionId: origin, taskId: 'tsk_nope' })).rejects.toMatchObject({
    code: 'not_found',
  });
});
