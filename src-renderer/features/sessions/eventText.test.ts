import { describe, expect, it } from 'vitest';
import type { SessionEventView } from '../../../src-shared/contract';
import { eventKind, eventText, sessionRows } from './eventText';

const ev = (seq: number, event_type: string, extra: Record<string, unknown> = {}): SessionEventView =>
  ({ ts: '2026-11-29T21:00:00.000Z', session_id: 'ses_x', seq, event_type, ...extra }) as SessionEventView;

describe('session trace rows', () => {
  it('starts a task header wherever the task changes, interleaved tasks included', () => {
    const events = [ev(0, 'session_start'), ev(1, 'task_start', { task_id: 'a' }), ev(2, 'inference', { task_id: 'a' }), ev(3, 'task_start', { task_id: 'b' }), ev(4, 'tool_call', { task_id: 'a' })];
    expect(sessionRows(events).map((r) => (r.kind === 'task' ? `[${r.taskId}]` : r.index))).toEqual(['[null]', 0, '[a]', 1, 2, '[b]', 3, '[a]', 4]);
  });

  it('says what turns, tools, hops, failures and cancels did', () => {
    expect(eventText(ev(1, 'inference', { turn: 2, tokens_in: 30, tokens_out: 7, stop_reason: 'end_turn', text: 'done' }))).toBe('turn 2 · 30 in / 7 out · end_turn · done');
    expect(eventText(ev(1, 'tool_result', { name: 'read_file', ok: false, result: 'ENOENT' }))).toBe('read_file failed: ENOENT');
    expect(eventText(ev(1, 'a2a_send', { peer_url: 'http://w', peer_task_id: 'tsk_1' }))).toBe('→ http://w task tsk_1');
    expect(eventText(ev(1, 'delegation_start', { to: 'researcher', peer_url: 'http://w', delegation_id: 'dlg_1' }))).toBe('→ researcher at http://w (dlg_1)');
    expect(eventText(ev(1, 'task_failed', { cause: 'driver', message: 'boom' }))).toBe('driver: boom');
    expect(eventText(ev(1, 'task_canceled', { by: 'CancelTask', interrupted: 'inference' }))).toBe('canceled by CancelTask during inference');
    expect(['tool_call', 'a2a_task_received', 'task_failed', 'task_canceled', 'session_end'].map(eventKind)).toEqual(['tool', 'a2a', 'failure', 'cancel', 'session']);
  });
});
