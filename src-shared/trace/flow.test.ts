import { describe, expect, it } from 'vitest';
import { createFlowTracker, delegationsOf, MAX_OPEN, TEXT_CHARS } from './flow';
import type { TraceEvent } from './events';

// The delegations and task progress the canvas draws, read from trace lines as the runtime writes
// them (tool_call, delegation_start/end, tool_result, the task's end).

let n = 0;
const at = () => `2026-01-01T00:00:${String(n++ % 60).padStart(2, '0')}.000Z`;
const line = (event_type: string, extra: Record<string, unknown> = {}, task_id = 't1'): TraceEvent =>
  ({ ts: at(), session_id: 'ses', task_id, event_type, ...extra }) as TraceEvent;
const call = (id: string, to: string, task = 't1') =>
  line('tool_call', { call_id: id, name: 'delegate_task', arguments: { to, text: 'x' } }, task);
const start = (id: string, to: string, more: Record<string, unknown> = {}, task = 't1') =>
  line(
    'delegation_start',
    { call_id: id, delegation_id: `dlg_${id}`, to, peer_url: 'http://127.0.0.1:4001/', capsule: to, ...more },
    task,
  );
const end = (id: string, state: string, peer = 'tsk_child', task = 't1') =>
  line('delegation_end', { call_id: id, delegation_id: `dlg_${id}`, peer_task_id: peer, state }, task);
const result = (id: string, ok: boolean, text: string, task = 't1') =>
  line('tool_result', { call_id: id, name: 'delegate_task', ok, result: text }, task);

describe('createFlowTracker: delegations', () => {
  it('follows a call from running to answered, with where it went and the task it became', () => {
    const t = createFlowTracker();
    expect(t.push(call('c1', 'writer')).delegation).toMatchObject([
      { taskId: 't1', callId: 'c1', to: 'writer', state: 'running' },
    ]);
    expect(t.push(start('c1', 'writer')).delegation).toMatchObject([
      { state: 'running', capsule: 'writer', peerUrl: 'http://127.0.0.1:4001/' },
    ]);
    // The worker's task ended: answered from then on, before the result line.
    expect(t.push(end('c1', 'TASK_STATE_COMPLETED')).delegation).toMatchObject([
      { state: 'answered', childTaskId: 'tsk_child' },
    ]);
    expect(t.push(result('c1', true, 'the draft')).delegation).toMatchObject([
      { state: 'answered', text: 'the draft', childTaskId: 'tsk_child', capsule: 'writer' },
    ]);
  });

  it('tells failed from canceled, and a canceled delegation stays canceled whatever its result says', () => {
    const got = delegationsOf([
      call('c1', 'a'),
      call('c2', 'b'),
      call('c3', 'c'),
      result('c1', false, 'peer_not_accepted: the peer refused'),
      result('c2', false, 'peer_task_canceled: the peer task was canceled'),
      start('c3', 'c'),
      end('c3', 'canceled', 'tsk_c'),
      result('c3', false, 'something else went wrong'),
    ]);
    expect(got.map((d) => [d.callId, d.state])).toEqual([
      ['c1', 'failed'],
      ['c2', 'canceled'],
      ['c3', 'canceled'],
    ]);
    expect(got[2].childTaskId).toBe('tsk_c');
  });

  it('ends what a task still had out when the task ends: canceled with a cancel, failed otherwise', () => {
    const canceled = delegationsOf([
      call('c1', 'a'),
      start('c1', 'a'),
      line('task_canceled', { interrupted: 'tool', in_flight: [], by: 'user' }),
    ]);
    expect(canceled).toMatchObject([{ callId: 'c1', state: 'canceled', text: 'the delegating task was canceled' }]);
    const failed = delegationsOf([call('c1', 'a', 't2'), line('task_end', { state: 'TASK_STATE_FAILED' }, 't2')]);
    expect(failed).toMatchObject([{ callId: 'c1', state: 'failed' }]);
  });

  it("keeps a delegation its task's cancel ended as it was, with its worker, when the call's result is written after", () => {
    const t = createFlowTracker();
    t.push(call('c1', 'researcher'));
    t.push(call('c2', 'writer'));
    t.push(start('c1', 'researcher'));
    t.push(end('c1', 'TASK_STATE_COMPLETED', 'tsk_r'));
    const ended = t.push(line('task_canceled', { interrupted: 'tool', in_flight: [], by: 'user' })).delegation;
    expect(ended?.map((d) => [d.callId, d.to, d.state]).sort()).toEqual([
      ['c1', 'researcher', 'answered'],
      ['c2', 'writer', 'canceled'],
    ]);
    expect(t.push(result('c1', true, 'notes')).delegation).toBeUndefined();
    expect(t.push(result('c2', false, 'canceled: the task was canceled')).delegation).toBeUndefined();
  });

  it('counts a delegation answered when its worker task ends, while the results of its sibling calls still wait', () => {
    const t = createFlowTracker();
    t.push(call('c1', 'fast'));
    t.push(call('c2', 'slow'));
    t.push(start('c1', 'fast'));
    t.push(start('c2', 'slow'));
    // The fast worker's task ended; tool results are written only once both calls are done.
    expect(t.push(end('c1', 'TASK_STATE_COMPLETED', 'tsk_fast')).delegation).toMatchObject([
      { callId: 'c1', state: 'answered' },
    ]);
    expect(t.push(end('c2', 'TASK_STATE_FAILED', 'tsk_slow')).delegation).toMatchObject([
      { callId: 'c2', state: 'failed' },
    ]);
    // A worker still asking for input has not ended.
    t.push(call('c3', 'asks'));
    expect(t.push(end('c3', 'TASK_STATE_INPUT_REQUIRED')).delegation).toMatchObject([{ state: 'running' }]);
    // The delegating task ending with the answer's result never written keeps it answered.
    expect(t.push(line('task_end', { state: 'TASK_STATE_FAILED' })).delegation).toMatchObject([
      { callId: 'c1', state: 'answered' },
      { callId: 'c2', state: 'failed' },
      { callId: 'c3', state: 'failed' },
    ]);
  });

  it('pairs a delegation_start without call_id (an older trace) with the open call to the same place', () => {
    const t = createFlowTracker();
    t.push(call('c1', 'a'));
    t.push(call('c2', 'b'));
    const bare = line('delegation_start', { delegation_id: 'dlg_b', to: 'b', peer_url: 'http://h:2/', capsule: 'b' });
    expect(t.push(bare).delegation).toMatchObject([{ callId: 'c2', peerUrl: 'http://h:2/' }]);
    const bareEnd = line('delegation_end', {
      delegation_id: 'dlg_b',
      peer_task_id: 'tsk_b',
      state: 'TASK_STATE_COMPLETED',
    });
    expect(t.push(bareEnd).delegation).toMatchObject([{ callId: 'c2', childTaskId: 'tsk_b' }]);
  });

  it('ignores other tools and lines without a task, cuts long results, and forgets the oldest open calls past its bound', () => {
    const t = createFlowTracker();
    expect(t.push(line('tool_call', { call_id: 'x', name: 'shell', arguments: {} }))).toEqual({});
    expect(t.push({ ts: at(), session_id: 'ses', event_type: 'session_start' } as TraceEvent)).toEqual({});
    t.push(call('long', 'a'));
    const [d] = t.push(result('long', true, 'y'.repeat(5000))).delegation!;
    expect(d.text!.length).toBe(TEXT_CHARS);
    for (let i = 0; i <= MAX_OPEN; i++) t.push(call(`c${i}`, 'a', `task${i}`));
    // c0 was forgotten: its result arrives as a delegation to an unknown place, not a crash.
    expect(t.push(result('c0', true, 'late', 'task0')).delegation).toMatchObject([
      { callId: 'c0', to: '?', state: 'answered' },
    ]);
    expect(t.push(result('c1', true, 'ok', 'task1')).delegation).toMatchObject([{ callId: 'c1', to: 'a' }]);
  });
});

describe('createFlowTracker: progress', () => {
  it('gives the turn, the tail of the streamed text, the tools waited on, and restarts the text each turn', () => {
    const t = createFlowTracker();
    expect(t.push(line('task_start', { context_id: 'c' })).progress).toEqual({ taskId: 't1', turn: 0, text: '' });
    t.push(line('frame', { kind: 'text_delta', turn: 1, text: 'Hel' }));
    expect(t.push(line('frame', { kind: 'text_delta', turn: 1, text: 'lo' })).progress).toEqual({
      taskId: 't1',
      turn: 1,
      text: 'Hello',
    });
    expect(
      t.push(line('inference', { turn: 1, tool_calls: [{ name: 'delegate_task' }, { name: 'delegate_task' }] }))
        .progress,
    ).toEqual({ taskId: 't1', turn: 1, text: 'Hello', waiting: 'delegate_task ×2' });
    expect(t.push(line('frame', { kind: 'text_delta', turn: 2, text: 'x'.repeat(1000) })).progress).toEqual({
      taskId: 't1',
      turn: 2,
      text: 'x'.repeat(TEXT_CHARS),
    });
    expect(t.push(line('inference', { turn: 2, text: 'Done.' })).progress).toMatchObject({ turn: 2, text: 'Done.' });
  });

  it('a task paused at a breakpoint says where it waits, until it goes on', () => {
    const t = createFlowTracker();
    t.push(line('task_start'));
    expect(
      t.push(line('breakpoint_hit', { point: 'edge', to: 'writer', capsule: 'writer', text: 'Draft it.' })).progress,
    ).toEqual({ taskId: 't1', turn: 0, text: '', waiting: 'a breakpoint before the delegation to writer' });
    expect(t.push(line('breakpoint_resumed', { action: 'continue' })).progress).toEqual({
      taskId: 't1',
      turn: 0,
      text: '',
    });
    expect(t.push(line('breakpoint_hit', { point: 'turn', turn: 2, text: 'x' })).progress?.waiting).toBe(
      'a breakpoint before turn 2',
    );
  });
});
