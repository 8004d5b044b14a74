import { describe, expect, it } from 'vitest';
import { runQueue, type TestState } from './testQueue';

// The Tests panel's queue: one test at a time, in order; Stop lets the running one finish and
// puts the queued ones back; a test that cannot run is an error, and the next still runs.

const passed = (name: string): TestState => ({
  kind: 'done',
  result: { name, passed: true, durationMs: 1, mismatches: [] },
});

function harness(stopAfter?: string) {
  const states: Record<string, TestState> = {};
  const ran: string[] = [];
  const progress: (string | null)[] = [];
  let stop = false;
  return {
    states,
    ran,
    progress,
    hooks: {
      async run(name: string): Promise<TestState> {
        ran.push(name);
        if (name === stopAfter) stop = true;
        if (name === 'broken') return { kind: 'error', message: 'No test broken' };
        return passed(name);
      },
      stopped: () => stop,
      alive: () => true,
      update: (s: Record<string, TestState>) => Object.assign(states, s),
      progress: (p: { current: string } | null) => progress.push(p ? p.current : null),
    },
  };
}

describe('runQueue', () => {
  it('runs every test in order, an error does not stop the others', async () => {
    const h = harness();
    await runQueue(['a', 'broken', 'c'], h.hooks);
    expect(h.ran).toEqual(['a', 'broken', 'c']);
    expect(h.states.broken).toEqual({ kind: 'error', message: 'No test broken' });
    expect(h.states.c.kind).toBe('done');
    expect(h.progress).toEqual(['a', 'broken', 'c', null]);
  });

  it('Stop lets the running test finish and runs no more', async () => {
    const h = harness('a');
    await runQueue(['a', 'b', 'c'], h.hooks);
    expect(h.ran).toEqual(['a']);
    expect(h.states).toEqual({ a: passed('a'), b: { kind: 'idle' }, c: { kind: 'idle' } });
    expect(h.progress.at(-1)).toBeNull();
  });
});
