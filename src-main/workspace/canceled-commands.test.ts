import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import { createTraceWriter } from '../trace';
import { syntheticSessionEvents } from '../trace/synthetic';
import { createTestStudio, type TestStudio } from './test-studio';

// Commands the user waits on stop when their caller aborts (Esc on a long command): the sessions
// browser's loads stop waiting for the trace index, a fork canceled before it starts runs
// nothing, and a canceled Kubernetes export writes no file.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const aborted = () => {
  const a = new AbortController();
  a.abort();
  return a.signal;
};

it('a sessions load stops waiting for the trace index when its caller aborts', { timeout: 60_000 }, async () => {
  studio = await createTestStudio({ workspace: null });
  const { core, home } = studio;
  // A backlog for the index: a session it has never read.
  const id = newSessionId();
  const w = createTraceWriter(join(home, 'records', id, 'trace.jsonl'), id);
  for (const e of syntheticSessionEvents({ tasks: 500, capsule: 'big' })) w.append(e);
  w.dispose();

  // A session the index has not seen: without the abort the core waits for the whole backlog and
  // then says not_found; aborted, it stops waiting and says canceled.
  const stop = new AbortController();
  const unknown = core.invoke('sessions.get', { sessionId: newSessionId() }, { signal: stop.signal });
  setTimeout(() => stop.abort(), 10);
  await expect(unknown).rejects.toMatchObject({ code: 'canceled' });
  await expect(core.invoke('sessions.list', {}, { signal: aborted() })).rejects.toMatchObject({ code: 'canceled' });
  await expect(core.invoke('sessions.timeline', { around: id }, { signal: aborted() })).rejects.toMatchObject({
    code: 'canceled',
  });

  // The index went on: the same questions answer once asked without an abort.
  await expect
    .poll(async () => (await core.invoke('sessions.list', {})).sessions.map((s) => s.id), { timeout: 30_000 })
    .toContain(id);
});

it('a fork canceled before it starts runs nothing', async () => {
  studio = await createTestStudio();
  const { core } = studio;
  expect((await core.invoke('formation.launch', {})).failed).toEqual([]);
  const task = await core.invoke('task.send', { capsuleId: 'coordinator', text: 'Plan a picnic' });
  const origin = (await core.invoke('formation.get', {})).capsules.find((c) => c.id === 'coordinator')!.sessionId!;
  const before = (await core.invoke('sessions.list', {})).sessions.length;

  await expect(
    core.invoke(
      'sessions.fork',
      { sessionId: origin, taskId: task.id, turn: 1, driver: 'real' },
      { signal: aborted() },
    ),
  ).rejects.toMatchObject({ code: 'canceled', message: expect.stringContaining('nothing ran') });
  expect((await core.invoke('sessions.family', { sessionId: origin })).forks).toEqual([]);
  expect((await core.invoke('sessions.list', {})).sessions.length).toBe(before);
});

it('a Kubernetes export canceled before writing leaves the folder empty', async () => {
  studio = await createTestStudio();
  const { core } = studio;
  await core.invoke('workspace.open', { dir: studio.workspace });
  const out = join(mkdtempSync(join(tmpdir(), 'capsule-export-')), 'kubernetes');
  await expect(core.invoke('deploy.write', { dir: out }, { signal: aborted() })).rejects.toMatchObject({
    code: 'canceled',
  });
  expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  // Not canceled, the same export writes its files.
  expect((await core.invoke('deploy.write', { dir: out })).files.length).toBeGreaterThan(0);
});
