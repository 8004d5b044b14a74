import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startSession } from '../launch';
import { makeRehearsal } from '../recording';
import type { SessionBreakpoints } from '../runtime';
import { staticFormation } from '../runtime/tools';
import { rehearsal, rpc, scene, traceOf, userMessage, waitFor, type Scene } from '../runtime/tools/formation.fixture';
import { readTestFile, runWorkspaceTests, testFileText, testFromRehearsal } from './index';

// A run whose delegation was edited at a breakpoint, saved as a test: the test expects what the
// worker really got and answered, its scripts send the edited message, and it passes on its first
// run against the workspace it was recorded in.

let s: Scene | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

const none: SessionBreakpoints = { turn: false, edges: [], timeoutMs: 60_000 };

it('a test saved from a run whose delegation was edited at a breakpoint passes on the run it was saved from', async () => {
  s = scene();
  const writer = s.manifest('writer', {
    inference: rehearsal([{ turns: [{ text: 'writer got: {{task}}' }] }]),
    exports: { peer_tasks: { accept: true } },
  });
  const boss = s.manifest('boss', {
    inference: rehearsal([
      {
        turns: [
          { tool_calls: [{ name: 'delegate_task', arguments: { to: 'writer', text: 'Draft a paragraph.' } }] },
          { text: 'done: {{tool_results}}' },
        ],
      },
    ]),
  });
  writeFileSync(
    join(s.dir, 'formation.yaml'),
    stringify({ capsules: ['boss', 'writer'].map((id) => ({ id, manifest: `${id}/murmur.yaml` })), remotes: [] }),
  );
  const orch = await startSession({
    manifestPath: boss,
    env: s.env,
    port: 0,
    formation: staticFormation({ writer: { kind: 'manifest', manifestPath: writer } }),
  });
  s.sessions.push(orch);
  orch.setBreakpoints({ ...none, edges: [{ names: ['writer'], urls: [] }] });
  const id = (
    await rpc(orch.url, 'SendMessage', { message: userMessage('write it'), configuration: { returnImmediately: true } })
  ).task.id as string;
  await waitFor('the pause', () => traceOf(orch).find((l) => l.event_type === 'breakpoint_hit'));
  orch.resumeBreakpoint(id, 'continue', 'Draft a haiku instead.');
  await waitFor('the answer', () => orch.taskState(id) === 'TASK_STATE_COMPLETED');
  expect(traceOf(orch).find((l) => l.event_type === 'breakpoint_resumed')).toMatchObject({
    edited: true,
    text: 'Draft a haiku instead.',
    call_id: expect.any(String),
  });

  const r = await makeRehearsal(orch.trace.path, { recordsRoot: join(s.env.CAPSULE_HOME!, 'records'), speed: 0 });
  expect(r.notes).toContainEqual(
    expect.stringMatching(
      /^boss: task tsk_\S+ turn 1: the delegation to writer was edited at a breakpoint; the replay sends the edited message$/,
    ),
  );
  mkdirSync(join(s.dir, 'tests'), { recursive: true });
  const file = join(s.dir, 'tests', 'edited.yaml');
  writeFileSync(file, testFileText(testFromRehearsal(r)));
  const test = readTestFile(readFileSync(file, 'utf8'));
  expect(test.tasks[0].expect).toEqual({
    answer: 'done: - writer: writer got: Draft a haiku instead.',
    status: 'ok',
    delegations: [
      { from: 'boss', to: 'writer', text: 'Draft a haiku instead.', answer: 'writer got: Draft a haiku instead.' },
    ],
  });

  const [outcome] = await runWorkspaceTests(s.dir);
  expect(outcome.mismatches).toEqual([]);
  expect(outcome).toMatchObject({ name: 'edited', passed: true });
  expect(outcome.actual?.[0].delegations[0]).toMatchObject({
    text: 'Draft a haiku instead.',
    answer: 'writer got: Draft a haiku instead.',
  });
});

it('a test saved from a run whose first turn was edited at a breakpoint passes too: it sends the message the user sent and replays what the model did', async () => {
  s = scene();
  const solo = s.manifest('solo', { inference: rehearsal([]) });
  writeFileSync(
    join(s.dir, 'formation.yaml'),
    stringify({ capsules: [{ id: 'solo', manifest: 'solo/murmur.yaml' }], remotes: [] }),
  );
  const session = await startSession({ manifestPath: solo, env: s.env, port: 0 });
  s.sessions.push(session);
  session.setBreakpoints({ ...none, turn: true });
  const id = (
    await rpc(session.url, 'SendMessage', {
      message: userMessage('original question'),
      configuration: { returnImmediately: true },
    })
  ).task.id as string;
  await waitFor('the pause', () => traceOf(session).find((l) => l.event_type === 'breakpoint_hit'));
  session.resumeBreakpoint(id, 'continue', 'edited question');
  await waitFor('the answer', () => session.taskState(id) === 'TASK_STATE_COMPLETED');

  const test = testFromRehearsal(
    await makeRehearsal(session.trace.path, { recordsRoot: join(s.env.CAPSULE_HOME!, 'records'), speed: 0 }),
  );
  expect(test.tasks).toEqual([
    { text: 'original question', expect: { answer: 'Acknowledged: “edited question”', status: 'ok', delegations: [] } },
  ]);
  mkdirSync(join(s.dir, 'tests'), { recursive: true });
  writeFileSync(join(s.dir, 'tests', 'first-turn.yaml'), testFileText(test));
  const [outcome] = await runWorkspaceTests(s.dir);
  expect(outcome.mismatches).toEqual([]);
  expect(outcome.passed).toBe(true);
});
