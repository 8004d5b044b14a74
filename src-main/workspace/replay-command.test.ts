import { afterEach, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';

// "Replay" (sessions.replay) through the core: the example formation's run comes back as one
// time-ordered list across its three capsules' sessions, and reading it runs nothing.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

it('reads a formation run for replay from its traces, across sessions, running nothing', async () => {
  studio = await createTestStudio();
  const { core } = studio;
  expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
  const task = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  const before = (await core.invoke('formation.get', {})).capsules.map((c) => [c.id, c.tasks]);
  const coordinator = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === 'coordinator')!;

  const run = await core.invoke('sessions.replay', { sessionId: coordinator.sessionId! });
  expect(run.entry).toBe('coordinator');
  expect(run.capsules.map((c) => c.capsule)).toEqual(['coordinator', 'researcher', 'writer']);
  expect(run.truncated).toBe(false);
  const hops = run.steps.flatMap((s) => s.delegations ?? []);
  expect(new Set(hops.filter((d) => d.state === 'answered').map((d) => d.to))).toEqual(
    new Set(['researcher', 'writer']),
  );
  expect(run.steps.at(-1)).toMatchObject({
    capsule: 'coordinator',
    task: { taskId: task.id, state: 'TASK_STATE_COMPLETED', text: task.artifacts?.[0]?.parts[0]?.text },
  });
  // One task of the session: the same run here (the session has one).
  const one = await core.invoke('sessions.replay', { sessionId: coordinator.sessionId!, taskId: task.id });
  expect(one.steps.length).toBe(run.steps.length);

  // Nothing ran.
  expect((await core.invoke('formation.get', {})).capsules.map((c) => [c.id, c.tasks])).toEqual(before);
  await expect(core.invoke('sessions.replay', { sessionId: 'ses_' + '0'.repeat(32) })).rejects.toMatchObject({
    code: 'not_found',
  });
  await expect(
    core.invoke('sessions.replay', { sessionId: coordinator.sessionId!, taskId: 'tsk_nope' }),
  ).rejects.toMatchObject({ code: 'not_found' });
  await expect(core.invoke('sessions.replay', { sessionId: '../etc/passwd' } as never)).rejects.toMatchObject({
    code: 'invalid_input',
  });
});
