import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CapsuleView, CoreClient, EdgeView, ReplayRun, ReplayStep } from '../../src-shared/contract';
import { emptyBatch } from './fold';
import { ingest, setCoreClient, useStudio } from './index';
import { setReplayClock } from './replaySlice';
import { EMPTY_FLOW, foldSteps } from './replayFold';

// Replay mode in the store: the recorded steps drive the canvas's flow through the live folds,
// the cursor moves it forward and back exactly, live events fold aside and come back on exit,
// and the core is only read (sessions.replay, the timeline).

const capsule = (id: string, extra: Partial<CapsuleView> = {}) =>
  ({ id, name: id, role: 'worker', state: 'idle', ...extra }) as CapsuleView;
const edges: EdgeView[] = [
  { id: 'boss->writer', source: 'boss', target: 'writer', targetKind: 'capsule', address: 'localhost:4001' },
];
const T = Date.UTC(2026, 0, 1);
const ts = (ms: number) => new Date(T + ms).toISOString();
const step = (at: number, line: number, capsuleName: string, extra: Partial<ReplayStep>): ReplayStep => ({
  at: T + at,
  line,
  sessionId: `ses_${capsuleName}`,
  capsule: capsuleName,
  ...extra,
});
const hop = (state: 'running' | 'answered', at: number) => ({
  taskId: 'tb',
  callId: 'c1',
  to: 'writer',
  state,
  ts: ts(at),
  ...(state === 'answered' ? { text: 'a draft' } : {}),
});
const run: ReplayRun = {
  sessionId: 'ses_' + '1'.repeat(32),
  entry: 'boss',
  capsules: [
    { capsule: 'boss', sessionIds: ['ses_boss'] },
    { capsule: 'writer', sessionIds: ['ses_writer'] },
    { capsule: 'gone', sessionIds: ['ses_gone'] },
  ],
  startedAt: T,
  endedAt: T + 400,
  lines: [],
  truncated: false,
  notes: [],
  steps: [
    step(0, 0, 'boss', { task: { taskId: 'tb', state: 'TASK_STATE_WORKING', text: '' } }),
    step(100, 1, 'boss', { delegations: [hop('running', 100)] }),
    step(150, 2, 'writer', { progress: { taskId: 'tw', turn: 1, text: 'drafting' } }),
    step(200, 3, 'writer', { task: { taskId: 'tw', state: 'TASK_STATE_COMPLETED', text: 'a draft' } }),
    step(300, 4, 'boss', { delegations: [hop('answered', 300)] }),
    step(400, 5, 'boss', { task: { taskId: 'tb', state: 'TASK_STATE_COMPLETED', text: 'the final answer' } }),
  ],
};

let calls: string[] = [];
const answerWith = (r: ReplayRun) =>
  (async (cmd: string) => {
    calls.push(cmd);
    if (cmd === 'sessions.replay') return r;
    throw new Error(`not in this test: ${cmd}`);
  }) as CoreClient['invoke'];
const client: CoreClient = {
  invoke: answerWith(run),
  on: () => () => undefined,
  dispose: () => undefined,
};

const live = {
  inFlight: 1,
  failed: 0,
  canceled: 0,
  runTaskId: 'live',
  hops: [{ taskId: 'live', callId: 'x', state: 'running' as const, ts: ts(0) }],
};

beforeEach(() => {
  calls = [];
  client.invoke = answerWith(run);
  setCoreClient(client);
  setReplayClock({ now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined });
  useStudio.setState({
    capsules: {
      boss: capsule('boss', { role: 'orchestrator' }),
      writer: capsule('writer', { url: 'http://127.0.0.1:4001/' }),
    },
    capsuleIds: ['boss', 'writer'],
    remotes: {},
    edgeViews: edges,
    edgeFlow: { 'boss->writer': live },
    activity: {},
    replay: null,
    notices: [],
  });
});
afterEach(() => {
  useStudio.getState().exitReplay();
  setCoreClient(null);
});

describe('replay mode', () => {
  it('shows the run from its start, steps to a hop in flight and to the answer, jumps back and to the end', async () => {
    await useStudio.getState().startReplay(run.sessionId);
    const s = () => useStudio.getState();
    expect(s().replay).toMatchObject({ cursor: 0, playing: false, missing: ['gone'] });
    expect(s().edgeFlow).toEqual({});
    s().replayControl({ do: 'stepHop' });
    expect(s().replay?.cursor).toBe(2);
    expect(s().edgeFlow['boss->writer']).toMatchObject({ inFlight: 1 });
    expect(s().activity.boss.current).toMatchObject({ taskId: 'tb', state: 'TASK_STATE_WORKING' });
    s().replayControl({ do: 'step' });
    s().replayControl({ do: 'step' });
    expect(s().activity.writer.last).toEqual({ taskId: 'tw', state: 'TASK_STATE_COMPLETED', text: 'a draft' });
    s().replayControl({ do: 'stepHop' });
    expect(s().edgeFlow['boss->writer']).toMatchObject({ inFlight: 0 });
    // Back: the state is folded anew, exactly as it stood after one step.
    s().replayControl({ do: 'jump', cursor: 1 });
    expect(s().edgeFlow).toEqual({});
    expect(s().activity.writer).toBeUndefined();
    s().replayControl({ do: 'speed', speed: 'instant' });
    s().replayControl({ do: 'play' });
    expect(s().replay?.cursor).toBe(run.steps.length);
    expect(s().activity.boss.last).toEqual({ taskId: 'tb', state: 'TASK_STATE_COMPLETED', text: 'the final answer' });
    // Reads only: the run, and the timeline around it (read in the background once its code loads).
    await vi.waitFor(() => expect([...calls].sort()).toEqual(['sessions.replay', 'sessions.timeline']));
  });

  it('keeps live events out of the replayed state and shows them again on exit', async () => {
    await useStudio.getState().startReplay(run.sessionId);
    const b = emptyBatch();
    b.delegations.push({
      sessionId: 'ses_live',
      capsuleId: 'boss',
      delegations: [{ taskId: 'live', callId: 'x', to: 'writer', state: 'answered', ts: ts(5), text: 'live answer' }],
    });
    ingest(b);
    expect(useStudio.getState().edgeFlow).toEqual({});
    useStudio.getState().exitReplay();
    expect(useStudio.getState().replay).toBeNull();
    expect(useStudio.getState().edgeFlow['boss->writer']).toMatchObject({
      inFlight: 0,
      hops: [expect.objectContaining({ text: 'live answer' })],
    });
  });

  it('lands on the same state whichever way it gets there (checkpoints on a long run)', async () => {
    const steps: ReplayStep[] = [];
    for (let i = 0; i < 700; i++) {
      const d = {
        taskId: `t${Math.floor(i / 40)}`,
        callId: `c${i >> 1}`,
        to: 'writer',
        state: i % 2 ? ('answered' as const) : ('running' as const),
        ts: ts(i),
        ...(i % 2 ? { text: `answer ${i}` } : {}),
      };
      steps.push(
        step(
          i,
          i,
          'boss',
          i % 7 === 3 ? { progress: { taskId: 'tb', turn: i, text: `turn ${i}` } } : { delegations: [d] },
        ),
      );
    }
    const long: ReplayRun = { ...run, steps };
    client.invoke = answerWith(long);
    await useStudio.getState().startReplay(run.sessionId);
    const s = () => useStudio.getState();
    const scratch = (n: number) => foldSteps(s(), long, s().replay!.ids, EMPTY_FLOW, 0, n);
    for (const to of [700, 300, 513, 512, 0, 255, 699, 256, 1]) {
      s().replayControl({ do: 'jump', cursor: to });
      expect({ edgeFlow: s().edgeFlow, activity: s().activity }).toEqual(scratch(to));
    }
  });
});
