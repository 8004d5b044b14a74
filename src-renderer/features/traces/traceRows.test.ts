import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../src-shared/trace';
import { allRows, createTraceGrouper } from './traceRows';

const ev = (event_type: string, task_id?: string, extra: Record<string, unknown> = {}): TraceEvent =>
  ({
    ts: '2026-01-01T00:00:00.000Z',
    event_type,
    session_id: 'ses_1',
    ...(task_id ? { task_id } : {}),
    ...extra,
  }) as TraceEvent;
const shape = (events: TraceEvent[], g = createTraceGrouper()) =>
  allRows(g.update(events)).map((r) => (r.kind === 'group' ? `#${r.key}` : r.index));
const fresh = (events: TraceEvent[]) => allRows(createTraceGrouper().update(events));

describe('trace rows', () => {
  it('groups events by task in order of first appearance, incrementally', () => {
    const g = createTraceGrouper();
    const events = [ev('session_start'), ev('task_start', 't1'), ev('task_start', 't2')];
    expect(shape(events, g)).toEqual(['#session', 0, '#t1', 1, '#t2', 2]);
    events.push(ev('task_end', 't1'));
    expect(shape(events, g)).toEqual(['#session', 0, '#t1', 1, 3, '#t2', 2]);
    const view = g.update(events);
    expect(view.rowAt(2)).toMatchObject({ kind: 'group', count: 2, last: 'task_end' });
    expect(view.headerOf(4)).toBe(2);
    expect(view.headerOf(6)).toBe(5);
  });

  it('gives the same view back until lines are appended', () => {
    const g = createTraceGrouper();
    const events = [ev('task_start', 't1')];
    const v = g.update(events);
    expect(g.update(events)).toBe(v);
    events.push(ev('frame', 't1'));
    expect(g.update(events)).not.toBe(v);
  });

  it('grows interleaved tasks the same as a fresh grouping would', () => {
    const g = createTraceGrouper();
    const events = [ev('session_start'), ev('task_start', 't1'), ev('task_start', 't2')];
    g.update(events);
    for (let i = 0; i < 50; i++) {
      events.push(ev('frame', i % 3 ? 't2' : 't1'), ...(i % 7 ? [] : [ev('task_start', `t${3 + i}`)]));
      expect(allRows(g.update(events))).toEqual(fresh(events));
    }
  });

  it('starts over when the event array is replaced', () => {
    const g = createTraceGrouper();
    g.update([ev('task_start', 't1')]);
    expect(g.update([ev('task_start', 't9')]).rowAt(0)).toMatchObject({ key: 't9' });
  });

  it('starts over when lines were dropped off the front of the same array', () => {
    const g = createTraceGrouper();
    const events = [ev('task_start', 't1'), ev('frame', 't1'), ev('task_start', 't2'), ev('frame', 't2')];
    g.update(events);
    events.splice(0, 2);
    events.push(ev('frame', 't2'), ev('task_end', 't2'));
    expect(allRows(g.update(events))).toEqual(fresh(events));
  });

  it("finds an event's row by its index, as the groups grow around it", () => {
    const g = createTraceGrouper();
    const events = [ev('session_start'), ev('task_start', 't1'), ev('task_start', 't2'), ev('frame', 't1')];
    const check = () => {
      const view = g.update(events);
      events.forEach((_, i) => expect(view.rowAt(view.positionOf(i))).toEqual({ kind: 'event', index: i }));
    };
    check();
    events.push(ev('frame', 't1'), ev('frame', 't2'), ev('task_start', 't3'));
    check();
    expect(g.update(events).positionOf(99)).toBe(-1);
  });
});
