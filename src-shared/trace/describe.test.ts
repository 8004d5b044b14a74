import { describe, expect, it } from 'vitest';
import type { TraceEvent } from './events';
import { describeTraceEvent, traceEventKind } from './describe';

const ev = (seq: number, event_type: string, extra: Record<string, unknown> = {}): TraceEvent =>
  ({ ts: '2026-11-29T21:00:00.000Z', session_id: 'ses_x', seq, event_type, ...extra }) as unknown as TraceEvent;

describe('trace lines in words', () => {
  it('says what turns, tools, hops, failures and cancels did', () => {
    expect(
      describeTraceEvent(
        ev(1, 'inference', { turn: 2, tokens_in: 30, tokens_out: 7, stop_reason: 'end_turn', text: 'done' }),
      ),
    ).toBe('turn 2 · 30 in / 7 out · end_turn · done');
    expect(describeTraceEvent(ev(1, 'tool_result', { name: 'read_file', ok: false, result: 'ENOENT' }))).toBe(
      'read_file failed: ENOENT',
    );
    expect(describeTraceEvent(ev(1, 'a2a_send', { peer_url: 'http://w', peer_task_id: 'tsk_1' }))).toBe(
      '→ http://w task tsk_1',
    );
    expect(
      describeTraceEvent(ev(1, 'delegation_start', { to: 'researcher', peer_url: 'http://w', delegation_id: 'dlg_1' })),
    ).toBe('→ researcher at http://w (dlg_1)');
    expect(describeTraceEvent(ev(1, 'task_failed', { cause: 'driver', message: 'boom' }))).toBe('driver: boom');
    expect(describeTraceEvent(ev(1, 'task_canceled', { by: 'CancelTask', interrupted: 'inference' }))).toBe(
      'canceled by CancelTask during inference',
    );
    const residue = [
      { kind: 'detached_shell', work_id: 'wrk_1', binary: 'sleep', command: 'sleep 30', started_at_ms: 1 },
      {
        kind: 'delegation',
        delegation_id: 'dlg_1',
        capsule: 'writer',
        version: '0.1.0',
        child_session_id: 'ses_9',
        child_workdir: '/tmp',
      },
    ];
    expect(describeTraceEvent(ev(1, 'task_canceled', { by: 'client', interrupted: 'tool', residue }))).toBe(
      'canceled by client during tool · running: sleep 30; ended: writer (ses_9)',
    );
    expect(
      ['tool_call', 'a2a_task_received', 'task_failed', 'task_canceled', 'session_end'].map(traceEventKind),
    ).toEqual(['tool', 'a2a', 'failure', 'cancel', 'session']);
    expect(describeTraceEvent(ev(1, 'frame', { kind: 'text_delta', turn: 1, text: 'fragment 7 ' }))).toBe(
      'fragment 7 (turn 1 streaming)',
    );
    expect(
      describeTraceEvent(ev(1, 'task_end', { state: 'TASK_STATE_COMPLETED', turns: 1, tokens_in: 3, tokens_out: 4 })),
    ).toBe('COMPLETED · 1 turn · 3/4 tokens');
    expect(describeTraceEvent(ev(1, 'policy_changed', { allow: ['localhost:4100'], accept_peer_tasks: false }))).toBe(
      'allow localhost:4100 · peer tasks refused',
    );
    expect(
      describeTraceEvent(
        ev(1, 'breakpoint_hit', { point: 'edge', to: 'writer', capsule: 'writer', text: 'Draft it.' }),
      ),
    ).toBe('paused before the delegation to writer: Draft it.');
    expect(
      describeTraceEvent(
        ev(1, 'breakpoint_resumed', { action: 'continue', edited: false, by: 'timeout', waited_ms: 600_000 }),
      ),
    ).toBe('continue (timed out) after 600 s');
    expect(traceEventKind('breakpoint_hit')).toBe('task');
    expect(describeTraceEvent(ev(1, 'custom_thing', { detail: 'x' }))).toBe('{"detail":"x"}');
    expect(
      describeTraceEvent(
        ev(1, 'answer_invalid', { turn: 1, problems: ['summary: must be string', 'findings: is required'] }),
      ),
    ).toBe('turn 1 answer does not fit responds: summary: must be string; findings: is required');
    expect(traceEventKind('answer_invalid')).toBe('failure');
    expect(describeTraceEvent(ev(1, 'artifact', { artifact_id: 'log', parts: 1, append: true }))).toBe(
      'log (appended) · 1 part',
    );
  });
});
