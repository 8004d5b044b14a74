import { describe, expect, it } from 'vitest';
import type { Task, TaskState } from '../../src-shared/a2a';
import type { CapsuleView, EdgeView, EventPayload, LastTaskView, RemoteView } from '../../src-shared/contract';
import type { DelegationUpdate } from '../../src-shared/trace';
import { emptyBatch, foldBatch } from './fold';
import { MAX_DONE_HOPS } from './flowModel';
import { foldActivity, foldEdgeFlow, OUTPUT_CHARS } from './flowSlice';
import { useStudio, type StudioState } from './index';

// The canvas's flow state folded from delegation.updated, task.progressed and task.updated:
// counts in flight per edge, marks of the latest run, each node's current task and last output.

const capsule = (id: string, extra: Partial<CapsuleView> = {}) =>
  ({ id, name: id, role: 'worker', state: 'idle', ...extra }) as CapsuleView;
const remote: RemoteView = {
  id: 'remote-1',
  url: 'https://agents.example.com/a2a',
  position: { x: 0, y: 0 },
  card: {
    name: 'Far agent',
    interfaces: [{ url: 'https://agents.example.com/a2a/v1', protocolBinding: 'JSONRPC' }],
    skills: [],
  } as never,
};
const edges: EdgeView[] = [
  { id: 'boss->writer', source: 'boss', target: 'writer', targetKind: 'capsule', address: 'localhost:4001' },
  {
    id: 'boss->remote-1',
    source: 'boss',
    target: 'remote-1',
    targetKind: 'remote',
    address: 'https://agents.example.com/a2a',
  },
  {
    id: 'boss->external:10.0.0.9:80',
    source: 'boss',
    target: 'external:10.0.0.9:80',
    targetKind: 'external',
    address: '10.0.0.9:80',
  },
];
const base = (): StudioState => ({
  ...useStudio.getState(),
  capsules: {
    boss: capsule('boss', { role: 'orchestrator' }),
    writer: capsule('writer', { url: 'http://127.0.0.1:4001/' }),
  },
  capsuleIds: ['boss', 'writer'],
  remotes: { 'remote-1': remote },
  remoteIds: ['remote-1'],
  edgeViews: edges,
  edgeFlow: {},
  activity: {},
});
const d = (
  callId: string,
  state: DelegationUpdate['state'],
  extra: Partial<DelegationUpdate> = {},
): DelegationUpdate => ({
  taskId: 't1',
  callId,
  to: 'writer',
  state,
  ts: `2026-01-01T00:00:0${callId.slice(-1)}.000Z`,
  ...extra,
});
const batch = (...delegations: DelegationUpdate[]): EventPayload<'delegation.updated'> => ({
  sessionId: 'ses',
  capsuleId: 'boss',
  delegations,
});
const fold = (s: StudioState, ...bs: EventPayload<'delegation.updated'>[]): StudioState => ({
  ...s,
  ...foldEdgeFlow(s, bs),
});

describe('foldEdgeFlow', () => {
  it('counts delegations in flight on the edge they cross, and none once they answered', () => {
    let s = fold(base(), batch(d('c1', 'running'), d('c2', 'running')));
    expect(s.edgeFlow['boss->writer']).toMatchObject({ inFlight: 2, failed: 0, canceled: 0 });
    s = fold(s, batch(d('c1', 'answered', { childTaskId: 'tsk_w1' })));
    expect(s.edgeFlow['boss->writer'].inFlight).toBe(1);
    expect(s.edgeFlow['boss->writer'].hops.find((h) => h.callId === 'c1')).toMatchObject({
      state: 'answered',
      childTaskId: 'tsk_w1',
    });
  });

  it('finds the edge by capsule id or name, by door URL, by a remote card interface, or by an external address', () => {
    const s = fold(
      base(),
      batch(
        d('c1', 'running', {
          to: 'http://127.0.0.1:4001',
          capsule: '127.0.0.1:4001',
          peerUrl: 'http://127.0.0.1:4001/',
        }),
        d('c2', 'running', { to: 'https://agents.example.com/a2a/v1', peerUrl: 'https://agents.example.com/a2a/v1' }),
        d('c3', 'running', { to: 'http://10.0.0.9/', peerUrl: 'http://10.0.0.9:80/' }),
        d('c4', 'running', { to: 'nobody-here' }),
      ),
    );
    expect(s.edgeFlow['boss->writer'].inFlight).toBe(1);
    expect(s.edgeFlow['boss->remote-1'].inFlight).toBe(1);
    expect(s.edgeFlow['boss->external:10.0.0.9:80'].inFlight).toBe(1);
    expect(Object.keys(s.edgeFlow)).toHaveLength(3);
  });

  it('marks failed and canceled hops until the next run (a delegation of another task) clears them', () => {
    let s = fold(base(), batch(d('c1', 'running'), d('c2', 'running'), d('c3', 'running')));
    s = fold(s, batch(d('c1', 'failed', { text: 'peer_not_accepted' }), d('c2', 'canceled'), d('c3', 'answered')));
    expect(s.edgeFlow['boss->writer']).toMatchObject({ inFlight: 0, failed: 1, canceled: 1 });
    // The marks stay while nothing else runs, and through more updates of the same run.
    s = fold(s, batch(d('c3', 'answered')));
    expect(s.edgeFlow['boss->writer']).toMatchObject({ failed: 1, canceled: 1 });
    s = fold(s, batch(d('c1', 'running', { taskId: 't2' })));
    expect(s.edgeFlow['boss->writer']).toMatchObject({ inFlight: 1, failed: 0, canceled: 0, runTaskId: 't2' });
  });

  it('keeps at most MAX_DONE_HOPS ended hops per edge, and leaves other edges untouched', () => {
    let s = fold(base(), batch({ ...d('r0', 'running', { to: 'https://agents.example.com/a2a' }) }));
    const remoteFlow = s.edgeFlow['boss->remote-1'];
    const burst = Array.from({ length: 500 }, (_, i) => d(`c${i}`, i % 3 ? 'answered' : 'failed'));
    s = fold(s, batch(...burst));
    expect(s.edgeFlow['boss->writer'].hops).toHaveLength(MAX_DONE_HOPS);
    expect(s.edgeFlow['boss->writer'].hops.at(-1)?.callId).toBe('c499');
    expect(s.edgeFlow['boss->remote-1']).toBe(remoteFlow);
  });

  it('counts what was in flight from a capsule whose session ended as canceled', () => {
    let s = fold(base(), batch(d('c1', 'running')));
    s = { ...s, ...foldEdgeFlow(s, [], [{ id: 'boss', state: 'stopped', queued: 0, tasks: 1, running: null }]) };
    expect(s.edgeFlow['boss->writer']).toMatchObject({ inFlight: 0, canceled: 1 });
  });
});

const task = (id: string, state: TaskState, answer = ''): Task =>
  ({
    id,
    contextId: 'ctx',
    status: { state },
    ...(answer ? { artifacts: [{ artifactId: 'a', parts: [{ text: answer }] }] } : {}),
  }) as Task;
const updated = (capsuleId: string, t: Task): EventPayload<'task.updated'> => ({
  capsuleId,
  sessionId: 'ses',
  task: t,
});
const progressed = (
  capsuleId: string,
  taskId: string,
  turn: number,
  text: string,
): EventPayload<'task.progressed'> => ({ sessionId: 'ses', capsuleId, tasks: [{ taskId, turn, text }] });

describe('foldActivity', () => {
  it('shows the current task with its turn and streamed text, then its last output once it ended', () => {
    let s = base();
    s = { ...s, ...foldActivity(s, [], [updated('writer', task('tsk_1', 'TASK_STATE_WORKING'))], []) };
    s = { ...s, ...foldActivity(s, [progressed('writer', 'tsk_1', 1, 'Drafting')], [], []) };
    expect(s.activity.writer).toEqual({
      current: { taskId: 'tsk_1', turn: 1, text: 'Drafting', state: 'TASK_STATE_WORKING' },
    });
    s = { ...s, ...foldActivity(s, [], [updated('writer', task('tsk_1', 'TASK_STATE_COMPLETED', 'The draft.'))], []) };
    expect(s.activity.writer).toEqual({ last: { taskId: 'tsk_1', state: 'TASK_STATE_COMPLETED', text: 'The draft.' } });
    // A progress batch that arrives after the end does not bring the task back.
    s = { ...s, ...foldActivity(s, [progressed('writer', 'tsk_1', 1, 'late')], [], []) };
    expect(s.activity.writer.current).toBeUndefined();
  });

  it('keeps the last output while the next task runs, cuts it to OUTPUT_CHARS, and clears the current task when the session stops', () => {
    let s = base();
    s = {
      ...s,
      ...foldActivity(s, [], [updated('writer', task('tsk_1', 'TASK_STATE_FAILED', 'x'.repeat(10_000)))], []),
    };
    expect(s.activity.writer.last?.text).toHaveLength(OUTPUT_CHARS);
    s = { ...s, ...foldActivity(s, [progressed('writer', 'tsk_2', 1, 'next')], [], []) };
    expect(s.activity.writer).toMatchObject({
      current: { taskId: 'tsk_2' },
      last: { taskId: 'tsk_1', state: 'TASK_STATE_FAILED' },
    });
    s = { ...s, ...foldActivity(s, [], [], [{ id: 'writer', state: 'stopped', queued: 0, tasks: 2, running: null }]) };
    expect(s.activity.writer).toEqual({ last: expect.objectContaining({ taskId: 'tsk_1' }) });
  });

  it('ignores capsules that are not in the formation, and keeps the identity of untouched nodes', () => {
    let s = base();
    s = { ...s, ...foldActivity(s, [progressed('boss', 't', 1, 'a')], [], []) };
    const boss = s.activity.boss;
    s = { ...s, ...foldActivity(s, [progressed('ghost', 't', 1, 'a'), progressed('writer', 'w', 1, 'b')], [], []) };
    expect(s.activity.ghost).toBeUndefined();
    expect(s.activity.boss).toBe(boss);
  });
});

describe('foldBatch', () => {
  it("draws a node's Last output from its capsule's record on connect, and from the newer task events after it", () => {
    const s = { ...base(), workspace: { dir: '/a', name: 'a', issues: [] } };
    const first = { taskId: 'tsk_1', state: 'TASK_STATE_COMPLETED' as const, text: 'The draft.' };
    const view = {
      dir: '/a',
      name: 'a',
      capsules: [s.capsules.boss, { ...s.capsules.writer, lastTask: first }].map((c) => ({
        ...c,
        position: { x: 0, y: 0 },
      })),
      remotes: [remote],
      edges,
      issues: [],
    };
    let next = {
      ...s,
      ...foldBatch(s, { ...emptyBatch(), formations: [{ change: { version: 3, dir: '/a', full: view }, after: 0 }] }),
    };
    expect(next.activity.writer).toEqual({ last: first });
    expect(next.activity.boss).toBeUndefined();
    // A record sent before a task ended, then that task's end, in one frame: the task's end is the last output.
    const status = (id: string, lastTask?: LastTaskView) => ({
      id,
      state: 'idle' as const,
      queued: 0,
      tasks: 2,
      running: null,
      ...(lastTask ? { lastTask } : {}),
    });
    next = {
      ...next,
      ...foldBatch(next, {
        ...emptyBatch(),
        capsuleStates: [status('writer', first)],
        tasks: [updated('writer', task('tsk_2', 'TASK_STATE_COMPLETED', 'The second draft.'))],
      }),
    };
    expect(next.activity.writer.last).toEqual({
      taskId: 'tsk_2',
      state: 'TASK_STATE_COMPLETED',
      text: 'The second draft.',
    });
    // Another capsule's record leaves this node as it is; its own record naming the same task too.
    const writer = next.activity.writer;
    next = {
      ...next,
      ...foldBatch(next, {
        ...emptyBatch(),
        capsuleStates: [status('boss'), status('writer', writer.last)],
      }),
    };
    expect(next.activity.writer).toBe(writer);
  });

  it('folds delegation.updated into the edges and the console outcomes in one update, and a new workspace forgets the flow', () => {
    const s = base();
    const next = { ...s, ...foldBatch(s, { ...emptyBatch(), delegations: [batch(d('c1', 'running'))] }) };
    expect(next.edgeFlow['boss->writer'].inFlight).toBe(1);
    expect(next.delegations.t1).toEqual([{ callId: 'c1', to: 'writer', state: 'running' }]);
    const other = { ...next, workspace: { dir: '/a', name: 'a', issues: [] } };
    const moved = foldBatch(other, {
      ...emptyBatch(),
      formations: [
        {
          change: {
            version: 1,
            dir: '/b',
            full: { dir: '/b', name: 'b', capsules: [], remotes: [], edges: [], issues: [] },
          },
          after: 0,
        },
      ],
    });
    expect(moved.edgeFlow).toEqual({});
  });
});
