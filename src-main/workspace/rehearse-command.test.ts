import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestStudio, type TestStudio } from './test-studio';

// "Make rehearsal" (sessions.rehearse): the example formation's run becomes a workspace under
// rehearsals/, which the Studio opens and runs again with the same delegations and answer.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

it('saves a rehearsal of a formation run in the workspace, which opens and replays it', async () => {
  studio = await createTestStudio();
  const { core, workspace } = studio;
  expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
  const task = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  const answer = task.artifacts?.[0]?.parts[0]?.text;
  const coordinator = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === 'coordinator')!;

  const made = await core.invoke('sessions.rehearse', { sessionId: coordinator.sessionId!, speed: 0 });
  expect(made.dir).toBe(join(workspace, 'rehearsals', `coordinator-${coordinator.sessionId!.slice(-6)}`));
  expect(made.capsules).toEqual(['coordinator', 'researcher', 'writer']);
  expect(made.notes).toEqual([]);
  const script = parse(readFileSync(join(made.dir, 'coordinator', 'murmur.yaml'), 'utf8')).inference.rehearsal;
  expect(script.recorded_from).toBe(coordinator.sessionId);
  expect(script.replies[0].when).toBe('/^Plan a picnic$/');
  // A second rehearsal of the same session gets its own folder.
  expect((await core.invoke('sessions.rehearse', { sessionId: coordinator.sessionId! })).dir).toBe(`${made.dir}-2`);

  await core.invoke('workspace.open', { dir: made.dir });
  expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
  const again = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
  expect(again.artifacts?.[0]?.parts[0]?.text).toBe(answer);
  await expect(core.invoke('sessions.rehearse', { sessionId: 'ses_' + '0'.repeat(32) })).rejects.toMatchObject({
    code: 'not_found',
  });
  expect(existsSync(join(made.dir, 'formation.yaml'))).toBe(true);
});
