import { afterEach, describe, expect, it } from 'vitest';
import type { CapsuleView, CoreClient } from '../../src-shared/contract';
import type { TraceEvent } from '../../src-shared/trace';
import { setCoreClient } from './client';
import { catchUpEntries, catchUpFlow, flowOf, forgetViewReads, knownLater } from './flowCatchUp';
import type { EventBatch } from './fold';
import type { StudioState } from './types';

// A page that (re)connects reads the running sessions' recent trace lines into the delegation and
// task-progress events it missed: a task paused at an edge breakpoint comes back as paused there.

let n = 0;
const line = (event_type: string, extra: Record<string, unknown> = {}, task_id = 't1'): TraceEvent =>
  ({
    ts: `2026-01-01T00:00:${String(n++).padStart(2, '0')}.000Z`,
    session_id: 'ses',
    task_id,
    event_type,
    ...extra,
  }) as TraceEvent;
const call = (id: string, to: string, task = 't1') =>
  line('tool_call', { call_id: id, name: 'delegate_task', arguments: { to, text: 'x' } }, task);

describe('flowOf', () => {
  it('gives the open delegations and what a paused task waits on', () => {
    const flow = flowOf('ses', 'coordinator', [
      line('task_start'),
      line('inference', { turn: 1, tool_calls: [{ name: 'delegate_task' }, { name: 'delegate_task' }] }),
      call('c1', 'researcher'),
      call('c2', 'writer'),
      line('delegation_end', { call_id: 'c1', peer_task_id: 'tsk_r', state: 'TASK_STATE_COMPLETED' }),
      line('breakpoint_hit', { point: 'edge', to: 'writer', capsule: 'writer' }),
    ]);
    expect(flow.delegations?.capsuleId).toBe('coordinator');
    expect(flow.delegations?.delegations.map((d) => [d.callId, d.to, d.state])).toEqual([
      ['c1', 'researcher', 'answered'],
      ['c2', 'writer', 'running'],
    ]);
    expect(flow.progress?.tasks).toEqual([
      { taskId: 't1', turn: 1, text: '', waiting: 'a breakpoint before the delegation to writer' },
    ]);
  });

  it('has no current turn for a task that ended, and nothing for lines without flow', () => {
    expect(flowOf('ses', 'c', [line('task_start'), line('task_end')]).progress).toBeUndefined();
    expect(
      flowOf('ses', 'c', [line('task_start', {}, 't2'), line('task_canceled', {}, 't2')]).progress,
    ).toBeUndefined();
    expect(flowOf('ses', 'c', [])).toEqual({});
  });
});

describe('knownLater', () => {
  const hop = (ts: string) => ({
    edgeFlow: {
      e: {
        inFlight: 0,
        failed: 0,
        canceled: 0,
        runTaskId: 't1',
        hops: [{ taskId: 't1', callId: 'c1', state: 'answered' as const, ts }],
      },
    },
  });
  const d = { taskId: 't1', callId: 'c1', to: 'w', state: 'running' as const, ts: '2026-01-01T00:00:05.000Z' };
  it('keeps a later live state over the lines read before it', () => {
    expect(knownLater(hop('2026-01-01T00:00:06.000Z'), d)).toBe(true);
    expect(knownLater(hop('2026-01-01T00:00:05.000Z'), d)).toBe(false);
    expect(knownLater({ edgeFlow: {} }, d)).toBe(false);
  });
});

describe('catchUpFlow', () => {
  afterEach(() => setCoreClient(null));

  it('reads only the sessions with work in hand: running, paused at a breakpoint (named running by the core) or queued', async () => {
    const read: string[] = [];
    setCoreClient({
      invoke: (cmd: string, input: { sessionId: string }) => {
        if (cmd !== 'trace.tail') return Promise.reject(new Error(`unexpected ${cmd}`));
        read.push(input.sessionId);
        return Promise.resolve({
          events: [
            line('task_start', {}, `t-${input.sessionId}`),
            line('breakpoint_hit', { point: 'turn', turn: 1 }, `t-${input.sessionId}`),
          ],
        });
      },
    } as unknown as CoreClient);
    const capsule = (id: string, p: Partial<CapsuleView>) => ({ id, state: 'idle', queued: 0, tasks: 0, ...p });
    const capsules = {
      idle: capsule('idle', { sessionId: 's-idle', running: null }),
      stopped: capsule('stopped', { state: 'stopped' }),
      paused: capsule('paused', { state: 'busy', sessionId: 's-paused', running: 't-s-paused' }),
      queued: capsule('queued', { sessionId: 's-queued', queued: 2 }),
    };
    const state = { capsules, edgeFlow: {} } as unknown as StudioState;
    const batches: EventBatch[] = [];
    await catchUpFlow(
      () => state,
      (b) => batches.push(b),
    );
    expect(read.sort()).toEqual(['s-paused', 's-queued']);
    expect(batches[0]?.progress.map((p) => p.capsuleId).sort()).toEqual(['paused', 'queued']);
  });

  it('reads the session that ran an unseen task once, idle or stopped, and again after the link dropped', async () => {
    const read: string[] = [];
    setCoreClient({
      invoke: (cmd: string, input: { sessionId: string }) => {
        read.push(input.sessionId);
        const t = `t-${input.sessionId}`;
        return Promise.resolve({
          events: [
            line('task_start', {}, t),
            call('c1', 'writer', t),
            line('tool_result', { call_id: 'c1', name: 'delegate_task', ok: true, result: 'done' }, t),
            line('task_end', { state: 'TASK_STATE_COMPLETED' }, t),
          ],
        });
      },
    } as unknown as CoreClient);
    const capsules = {
      idle: { id: 'idle', state: 'idle', queued: 0, sessionId: 's-idle', running: null },
      busy: { id: 'busy', state: 'busy', queued: 0, sessionId: 's-busy', running: 't' },
      stopped: { id: 'stopped', state: 'stopped', queued: 0 },
    };
    const state = { capsules, edgeFlow: {}, delegations: {}, linked: true } as unknown as StudioState;
    const batches: EventBatch[] = [];
    const need = (...entries: { capsuleId: string; taskId?: string; sessionId?: string }[]) =>
      catchUpEntries(
        () => state,
        (b) => batches.push(b),
        entries,
      );
    forgetViewReads();
    // An entry kept before entries named their session: its capsule's running session.
    await need({ capsuleId: 'idle', taskId: 't-s-idle' });
    await need({ capsuleId: 'idle', taskId: 't-s-idle', sessionId: 's-idle' });
    await need({ capsuleId: 'busy', taskId: 't', sessionId: 's-busy' }); // read on connect, and followed live
    await need({ capsuleId: 'stopped', taskId: 't-old' }); // no session named, none running: nothing to read
    // A stopped session named by its entries: read once, however many of its tasks are unseen.
    await need(
      { capsuleId: 'stopped', taskId: 't-s-gone', sessionId: 's-gone' },
      { capsuleId: 'stopped', taskId: 't-other', sessionId: 's-gone' },
    );
    await need({ capsuleId: 'stopped', taskId: 't-s-gone', sessionId: 's-gone' });
    expect(read).toEqual(['s-idle', 's-gone']);
    expect(batches).toHaveLength(2);
    expect(batches[1].delegations[0]).toMatchObject({ sessionId: 's-gone', capsuleId: 'stopped' });
    expect(batches[1].delegations[0].delegations.map((d) => [d.taskId, d.to, d.state])).toEqual([
      ['t-s-gone', 'writer', 'answered'],
    ]);
    forgetViewReads();
    await need({ capsuleId: 'idle', taskId: 't-s-idle' });
    expect(read).toEqual(['s-idle', 's-gone', 's-idle']);
    // A task whose delegations the page holds, or a page without a link, reads nothing.
    forgetViewReads();
    (state as { delegations: object }).delegations = { 't-s-idle': [] };
    await need({ capsuleId: 'idle', taskId: 't-s-idle' });
    (state as { linked: boolean }).linked = false;
    await need({ capsuleId: 'stopped', taskId: 't-x', sessionId: 's-gone' });
    expect(read).toEqual(['s-idle', 's-gone', 's-idle']);
  });
});
