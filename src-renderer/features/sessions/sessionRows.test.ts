import { describe, expect, it } from 'vitest';
import type { SessionEventView } from '../../../src-shared/contract';
import { sessionRows } from './sessionRows';

const ev = (seq: number, event_type: string, extra: Record<string, unknown> = {}): SessionEventView =>
  ({ ts: '2026-11-29T21:00:00.000Z', session_id: 'ses_x', seq, event_type, ...extra }) as SessionEventView;

describe('session trace rows', () => {
  it('starts a task header wherever the task changes, interleaved tasks included', () => {
    const events = [
      ev(0, 'session_start'),
      ev(1, 'task_start', { task_id: 'a' }),
      ev(2, 'inference', { task_id: 'a' }),
      ev(3, 'task_start', { task_id: 'b' }),
      ev(4, 'tool_call', { task_id: 'a' }),
    ];
    expect(sessionRows(events).map((r) => (r.kind === 'task' ? `[${r.taskId}]` : r.index))).toEqual([
      '[null]',
      0,
      '[a]',
      1,
      2,
      '[b]',
      3,
      '[a]',
      4,
    ]);
  });
});
