import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../src-shared/trace';
import { createTraceFilter, NO_FILTER } from './traceFilter';

const ev = (n: number, event_type: string, task_id?: string, extra: Record<string, unknown> = {}): TraceEvent =>
  ({
    ts: '2026-11-29T21:00:00.000Z',
    session_id: 'ses_x',
    n,
    event_type,
    ...(task_id ? { task_id } : {}),
    ...extra,
  }) as unknown as TraceEvent;

describe('createTraceFilter', () => {
  it('passes every line through unfiltered, and lists the types and tasks seen', () => {
    const f = createTraceFilter();
    const events = [
      ev(1, 'session_start'),
      ev(2, 'task_received', 'tsk_a'),
      ev(3, 'inference_end', 'tsk_a', { text: 'Tide pools' }),
    ];
    const r = f(events, NO_FILTER);
    expect(r.events).toBe(events);
    expect(r.types).toEqual(['inference_end', 'session_start', 'task_received']);
    expect(r.tasks).toEqual(['session', 'tsk_a']);
  });

  it('filters by type, task and text (any case), growing in place as lines arrive', () => {
    const f = createTraceFilter();
    const events = [
      ev(1, 'session_start'),
      ev(2, 'inference_end', 'tsk_a', { text: 'Tide pools' }),
      ev(3, 'inference_end', 'tsk_b', { text: 'Sea stars' }),
    ];
    const byText = f(events, { ...NO_FILTER, text: 'TIDE' });
    expect(byText.events.map((e) => (e as unknown as { n: number }).n)).toEqual([2]);
    events.push(ev(4, 'inference_end', 'tsk_b', { text: 'more tide' }));
    const grown = f(events, { ...NO_FILTER, text: 'TIDE' });
    expect(grown.events).toBe(byText.events);
    expect(grown.events.map((e) => (e as unknown as { n: number }).n)).toEqual([2, 4]);
    expect(
      f(events, { type: 'inference_end', task: 'tsk_b', text: '' }).events.map(
        (e) => (e as unknown as { n: number }).n,
      ),
    ).toEqual([3, 4]);
    expect(f(events, { ...NO_FILTER, task: 'session' }).events.map((e) => (e as unknown as { n: number }).n)).toEqual([
      1,
    ]);
    expect(f(events, { ...NO_FILTER, text: 'nothing like it' }).events).toEqual([]);
  });

  it('starts over on a new events array', () => {
    const f = createTraceFilter();
    f([ev(1, 'a', 'tsk_a')], NO_FILTER);
    const r = f([ev(1, 'b', 'tsk_b')], { ...NO_FILTER, type: 'b' });
    expect(r.events.map((e) => e.event_type)).toEqual(['b']);
    expect(r.types).toEqual(['b']);
  });
});
