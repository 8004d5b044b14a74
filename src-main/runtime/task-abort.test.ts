import { describe, expect, it } from 'vitest';
import { TaskAbort } from './tasks';

// A task's cancel switch makes its AbortSignal only when asked for; whenever it is made, it says
// what the switch says, and a cancel reaches whoever listens.

describe('TaskAbort', () => {
  it('a signal made before the cancel fires it; one made after is already aborted', () => {
    const early = new TaskAbort();
    const signal = early.signal;
    let fired = 0;
    signal.addEventListener('abort', () => fired++);
    expect(early.signal).toBe(signal);
    early.abort();
    early.abort();
    expect([early.aborted, signal.aborted, fired]).toEqual([true, true, 1]);

    const late = new TaskAbort();
    expect(late.aborted).toBe(false);
    late.abort();
    expect(late.aborted).toBe(true);
    expect(late.signal.aborted).toBe(true);
  });
});
