import type { TestResultView } from '../../../src-shared/contract';

// Running several tests, one after another: each is queued, then running, then done (or an
// error); Stop is checked between tests, so the one running finishes (its tasks are bounded by
// its timeout_ms) and those still queued go back to "not run".

export type TestState =
  | { kind: 'idle' }
  | { kind: 'queued' }
  | { kind: 'running' }
  | { kind: 'done'; result: TestResultView }
  | { kind: 'error'; message: string };

export interface QueueHooks {
  run(name: string): Promise<TestState>;
  stopped(): boolean;
  /** False once the panel is gone: nothing more is reported. */
  alive(): boolean;
  update(states: Record<string, TestState>): void;
  progress(p: { done: number; total: number; current: string } | null): void;
}

const all = (names: string[], state: TestState) => Object.fromEntries(names.map((n) => [n, state]));

export async function runQueue(names: string[], h: QueueHooks): Promise<void> {
  h.update(all(names, { kind: 'queued' }));
  for (let i = 0; i < names.length; i++) {
    if (!h.alive()) return;
    if (h.stopped()) {
      h.update(all(names.slice(i), { kind: 'idle' }));
      break;
    }
    h.progress({ done: i, total: names.length, current: names[i] });
    h.update({ [names[i]]: { kind: 'running' } });
    const next = await h.run(names[i]);
    if (!h.alive()) return;
    h.update({ [names[i]]: next });
  }
  h.progress(null);
}
