import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../src-shared/trace';
import { TURN_TEXT_CHARS, taskDelegations, taskFigures, taskHistory } from './taskTrace';

const T = 'tsk_1';
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const line = (ms: number, event_type: string, extra: Record<string, unknown> = {}): TraceEvent =>
  ({ ts: at(ms), event_type, session_id: 'ses_1', task_id: T, ...extra }) as TraceEvent;

// A task of two turns: the first delegates twice (in parallel) and waits for both, the second answers.
const run = [
  line(0, 'a2a_task_received', { text: 'go' }),
  line(5, 'task_start'),
  line(155, 'inference', { turn: 1, tokens_in: 1200, tokens_out: 80, duration_ms: 150, stop_reason: 'tool_use' }),
  line(156, 'tool_call', { call_id: 'c1', name: 'delegate_task', arguments: { to: 'researcher', text: 'facts' } }),
  line(156, 'tool_call', { call_id: 'c2', name: 'delegate_task', arguments: { to: 'writer', text: 'draft' } }),
  line(160, 'delegation_start', {
    delegation_id: 'dlg_a',
    call_id: 'c1',
    to: 'researcher',
    capsule: 'researcher',
    child_session_id: 'ses_r',
    peer_url: 'http://127.0.0.1:1',
  }),
  line(161, 'delegation_start', {
    delegation_id: 'dlg_b',
    call_id: 'c2',
    to: 'writer',
    capsule: 'writer',
    child_session_id: 'ses_w',
    peer_url: 'http://127.0.0.1:2',
  }),
  line(170, 'a2a_send', { peer_url: 'http://127.0.0.1:2', peer_task_id: 'tsk_w' }),
  line(171, 'a2a_send', { peer_url: 'http://127.0.0.1:1', peer_task_id: 'tsk_r' }),
  line(500, 'delegation_end', { delegation_id: 'dlg_a', peer_task_id: 'tsk_r', state: 'TASK_STATE_COMPLETED' }),
  line(501, 'tool_result', {
    call_id: 'c1',
    name: 'delegate_task',
    ok: true,
    result: 'facts',
    peer_task_id: 'tsk_r',
    child_session_id: 'ses_r',
    capsule: 'researcher',
  }),
  line(800, 'delegation_end', { delegation_id: 'dlg_b', peer_task_id: 'tsk_w', state: 'TASK_STATE_FAILED' }),
  line(801, 'tool_result', {
    call_id: 'c2',
    name: 'delegate_task',
    ok: false,
    result: 'peer_task_failed: no ink',
    peer_task_id: 'tsk_w',
    child_session_id: 'ses_w',
    capsule: 'writer',
  }),
  line(1001, 'inference', {
    turn: 2,
    tokens_in: 1500,
    tokens_out: 40,
    duration_ms: 200,
    stop_reason: 'end_turn',
    text: 'Summary: all done.',
  }),
  line(1002, 'task_end', { state: 'TASK_STATE_COMPLETED', duration_ms: 1002 }),
];

describe('turn figures from trace lines', () => {
  it('times each turn: its start from the task, the model, its tool calls until the last result', () => {
    const f = taskFigures(run, null);
    expect(f.turns.map((t) => [t.turn, t.offsetMs, t.modelMs, t.toolsMs])).toEqual([
      [1, 5, 150, 646],
      [2, 801, 200, null],
    ]);
    expect(f.turns[0].tools).toEqual([
      { callId: 'c1', name: 'delegate_task', ok: true, durationMs: 345 },
      { callId: 'c2', name: 'delegate_task', ok: false, durationMs: 645 },
    ]);
    expect(f).toMatchObject({ tokensIn: 2700, tokensOut: 120, modelMs: 350, wallMs: 1002, costUsd: null });
    expect(f.turns.every((t) => t.costUsd === null)).toBe(true);
    expect(f.turns.map((t) => t.text)).toEqual(['', 'Summary: all done.']);
  });

  it('prices every turn and the task when the model has a price', () => {
    const f = taskFigures(run, { inPerMTok: 3, outPerMTok: 15 });
    expect(f.turns[0].costUsd).toBeCloseTo((1200 * 3 + 80 * 15) / 1e6, 12);
    expect(f.turns[1].costUsd).toBeCloseTo((1500 * 3 + 40 * 15) / 1e6, 12);
    expect(f.costUsd).toBeCloseTo((2700 * 3 + 120 * 15) / 1e6, 12);
  });

  it('reads a task still running: a tool call without its result, no end yet', () => {
    const f = taskFigures(run.slice(0, 5), null);
    expect(f.turns).toHaveLength(1);
    expect(f.turns[0].toolsMs).toBeNull();
    expect(f.turns[0].tools[0].ok).toBeUndefined();
    expect(f.wallMs).toBe(156);
  });

  it('has nothing to say about a task with no lines, and ignores lines it does not know', () => {
    expect(taskFigures([], null)).toEqual({
      turns: [],
      tokensIn: 0,
      tokensOut: 0,
      modelMs: 0,
      costUsd: null,
      wallMs: null,
    });
    const odd = [
      line(0, 'task_start'),
      line(10, 'inference', { turn: 'x', tokens_in: -1 as unknown, duration_ms: 'slow' }),
      line(20, 'frame'),
    ];
    const f = taskFigures(odd, null);
    expect(f.turns[0]).toMatchObject({ turn: 1, modelMs: 0, tokensIn: -1, text: '' });
    const long = taskFigures([line(0, 'inference', { turn: 1, text: 'y'.repeat(TURN_TEXT_CHARS + 5) })], null);
    expect(long.turns[0].text).toHaveLength(TURN_TEXT_CHARS);
  });
});

describe('delegations from trace lines', () => {
  it('joins each call to its child task, the sends answering out of order', () => {
    expect(taskDelegations(run)).toEqual([
      {
        callId: 'c1',
        to: 'researcher',
        capsule: 'researcher',
        childSessionId: 'ses_r',
        peerTaskId: 'tsk_r',
        state: 'answered',
        peerState: 'TASK_STATE_COMPLETED',
      },
      {
        callId: 'c2',
        to: 'writer',
        capsule: 'writer',
        childSessionId: 'ses_w',
        peerTaskId: 'tsk_w',
        state: 'failed',
        peerState: 'TASK_STATE_FAILED',
        error: 'peer_task_failed: no ink',
      },
    ]);
  });

  it('a delegation is answered once its worker answered, while its sibling is still out (paused at a breakpoint)', () => {
    // Tool results are written together once every call of the turn is done: the researcher's
    // waits for the writer's, held at a breakpoint, but its worker has answered.
    const held = run.slice(0, 10); // up to the researcher's delegation_end
    expect(taskDelegations(held).map((d) => [d.to, d.state, d.peerState])).toEqual([
      ['researcher', 'answered', 'TASK_STATE_COMPLETED'],
      ['writer', 'running', undefined],
    ]);
  });

  it('knows the child task while the delegation still runs', () => {
    const inFlight = taskDelegations(run.slice(0, 9));
    expect(inFlight.map((d) => [d.state, d.peerTaskId])).toEqual([
      ['running', 'tsk_r'],
      ['running', 'tsk_w'],
    ]);
  });

  it('reads traces from before delegation_start named its call', () => {
    // Before: delegation_start had no call_id, tool_result no peer task or session.
    const drop = (e: TraceEvent, keys: string[]) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))) as unknown as TraceEvent;
    const old = run.map((e) =>
      e.event_type === 'delegation_start'
        ? drop(e, ['call_id'])
        : e.event_type === 'tool_result'
          ? drop(e, ['peer_task_id', 'child_session_id', 'capsule'])
          : e,
    );
    const d = taskDelegations(old);
    expect(d.map((x) => [x.callId, x.childSessionId, x.peerTaskId])).toEqual([
      ['c1', 'ses_r', 'tsk_r'],
      ['c2', 'ses_w', 'tsk_w'],
    ]);
  });

  it('takes every delegation state from its result when the lines name no task (the shared reading cannot place them)', () => {
    const noTask = (e: TraceEvent) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'task_id')) as unknown as TraceEvent;
    const d = taskDelegations(run.map(noTask));
    expect(d.map((x) => x.state)).toEqual(['answered', 'failed']);
  });

  it('keeps a failed delegation that never reached a peer, with its error cut short', () => {
    const refused = [
      line(0, 'task_start'),
      line(10, 'inference', { turn: 1 }),
      line(11, 'tool_call', { call_id: 'c9', name: 'delegate_task', arguments: { to: 'nowhere' } }),
      line(12, 'tool_result', { call_id: 'c9', name: 'delegate_task', ok: false, result: 'x'.repeat(1000) }),
    ];
    const [d] = taskDelegations(refused);
    expect(d).toMatchObject({ to: 'nowhere', state: 'failed' });
    expect(d.peerTaskId).toBeUndefined();
    expect(d.error).toHaveLength(300);
  });
});

describe('history from trace lines', () => {
  it('lists arrival, start and end with their times from the arrival', () => {
    const h = (t: TraceEvent[]) => taskHistory(t).map((s) => [s.offsetMs, s.what]);
    expect(h(run)).toEqual([
      [0, 'received'],
      [5, 'started'],
      [1002, 'ended COMPLETED'],
    ]);
    const asked = [
      line(0, 'task_start'),
      line(40, 'input_required', { question: 'Which colour?' }),
      line(90, 'task_end', { state: 'TASK_STATE_INPUT_REQUIRED', turns: 1 }),
    ];
    expect(h(asked)).toEqual([
      [0, 'started'],
      [40, 'asked for input: Which colour?'],
      [90, 'ended INPUT_REQUIRED after 1 turn'],
    ]);
  });
});
