import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from '../workspace/test-studio';

// The Tests panel through the core's contract: a run of the example formation saved as a test
// (as `capsule rehearse --save-test`), listed with its expectations, passing against the
// workspace as recorded; after a manifest edit that changes what a capsule answers, failing with
// the mismatches and what the run did.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

it('saves a session as a test, lists it, passes, and fails with the diff after a manifest edit', async () => {
  studio = await createTestStudio();
  const { core, workspace } = studio;
  expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
  const task = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  await core.invoke('formation.stop', {});
  const sessionId = (await core.invoke('sessions.list', { capsule: 'coordinator' })).sessions[0].id;

  const saved = await core.invoke('tests.saveFromSession', { sessionId, name: 'picnic' });
  expect(saved.file).toBe(join(workspace, 'tests', 'picnic.yaml'));
  await expect(core.invoke('tests.saveFromSession', { sessionId, name: 'picnic' })).rejects.toMatchObject({
    code: 'conflict',
  });
  await expect(core.invoke('tests.saveFromSession', { sessionId, name: '../escape' })).rejects.toMatchObject({
    code: 'invalid_input',
  });

  const { tests } = await core.invoke('tests.list', {});
  expect(tests).toHaveLength(1);
  expect(tests[0]).toMatchObject({ name: 'picnic', entry: 'coordinator', recordedFrom: sessionId });
  expect(tests[0].tasks[0].delegations?.map((d) => `${d.from}->${d.to}`)).toEqual([
    'coordinator->researcher',
    'coordinator->writer',
  ]);
  expect(tests[0].tasks[0].answer?.kind).toBe('exact');

  const pass = await core.invoke('tests.run', { name: 'picnic' });
  expect(pass.mismatches).toEqual([]);
  expect(pass).toMatchObject({ name: 'picnic', passed: true });
  expect(pass.actual?.[0].delegations.map((d) => d.to)).toEqual(['researcher', 'writer']);

  // The coordinator may now take one turn only: it never gets to write its summary.
  const file = join(workspace, 'capsules', 'coordinator.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('max_turns: 6', 'max_turns: 1'));
  const fail = await core.invoke('tests.run', { name: 'picnic' });
  expect(fail.passed).toBe(false);
  expect(fail.mismatches.map((m) => m.path)).toContain('task 1: answer');
  expect(fail.actual).toHaveLength(1);
  await expect(core.invoke('tests.run', { name: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
});

it('a test run its caller stops (Esc in the Studio) cancels its task and frees the runner at once', async () => {
  studio = await createTestStudio();
  const { core, workspace } = studio;
  // The coordinator's scripted turn takes 30 s: the run is stopped long before.
  mkdirSync(join(workspace, 'tests'), { recursive: true });
  writeFileSync(
    join(workspace, 'tests', 'slow.yaml'),
    'entry: coordinator\nscripts:\n  coordinator:\n    delay_ms: 30000\n    replies:\n      - turns:\n          - text: late\ntasks:\n  - text: take your time\n',
  );
  const stop = new AbortController();
  const started = Date.now();
  const run = core.invoke('tests.run', { name: 'slow' }, { signal: stop.signal });
  setTimeout(() => stop.abort(), 500);
  await expect(run).rejects.toMatchObject({ code: 'canceled' });
  expect(Date.now() - started).toBeLessThan(10_000);
  // The runner is free again (one test at a time): the next run is not refused as running.
  const again = new AbortController();
  const next = core.invoke('tests.run', { name: 'slow' }, { signal: again.signal });
  setTimeout(() => again.abort(), 200);
  await expect(next).rejects.toMatchObject({ code: 'canceled' });
});
