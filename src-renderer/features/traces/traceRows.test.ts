import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../src-shared/trace';
import { createTraceGrouper, describeEvent } from './traceRows';

const ev = (event_type: string, task_id?: string, extra: Record<string, unknown> = {}): TraceEvent =>
  ({ ts: '2026-01-01T00:00:00.000Z', event_type, session_id: 'ses_1', ...(task_id ? { task_id } : {}), ...extra }) as TraceEvent;

describe('trace rows', () => {
  it('groups events by task in order of first appearance, incrementally', () => {
    const g = createTraceGrouper();
    const events = [ev('session_start'), ev('task_start', 't1'), ev('task_start', 't2')];
    expect(g.rows(events).map((r) => (r.kind === 'group' ? `#${r.key}` : r.index))).toEqual(['#session', 0, '#t1', 1, '#t2', 2]);
    events.push(ev('task_end', 't1'));
    const rows = g.rows(events);
    expect(rows.map((r) => (r.kind === 'group' ? `#${r.key}` : r.index))).toEqual(['#session', 0, '#t1', 1, 3, '#t2', 2]);
    expect(rows[2]).toMatchObject({ kind: 'group', count: 2, last: 'task_end' });
  });

  it('grows the rows of a burst inside the last task the same as a fresh grouping would', () => {
    const g = createTraceGrouper();
    const events = [ev('session_start'), ev('task_start', 't1'), ev('task_start', 't2')];
    g.rows(events);
    for (let i = 0; i < 5; i++) events.push(ev('frame', 't2'));
    const grown = g.rows(events);
    expect(grown).toEqual(createTraceGrouper().rows(events));
    expect(grown[grown.length - 7]).toMatchObject({ kind: 'group', key: 't2', count: 6, last: 'frame' });
    // A line of another task afterwards regroups as before.
    events.push(ev('task_end', 't1'));
    expect(g.rows(events)).toEqual(createTraceGrouper().rows(events));
  });

  it('starts over when the event array is replaced', () => {
    const g = createTraceGrouper();
    g.rows([ev('task_start', 't1')]);
    expect(g.rows([ev('task_start', 't9')])[0]).toMatchObject({ key: 't9' });
  });

  it('summarizes events in words', () => {
    expect(describeEvent(ev('inference', 't1', { turn: 2, tokens_in: 10, tokens_out: 5, stop_reason: 'end_turn', duration_ms: 3 }))).toBe(
      'turn 2: 10 in / 5 out, end_turn, 3 ms',
    );
    expect(describeEvent(ev('a2a_send', 't1', { url: 'http://127.0.0.1:5/' }))).toContain('a2a send');
    expect(describeEvent(ev('frame', 't1', { kind: 'text_delta', turn: 1, text: 'fragment 7 ' }))).toBe('turn 1 streaming: fragment 7 ');
  });
});
