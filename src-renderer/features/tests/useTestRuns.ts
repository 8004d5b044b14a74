import { useCallback, useEffect, useRef, useState } from 'react';
import type { TestView } from '../../../src-shared/contract';
import { describeError, invoke, runLong } from '../../store';
import { runQueue, type TestState } from './testQueue';

// The Tests panel's state: the workspace's tests, each one's last result, and the queue that runs
// them one at a time (testQueue.ts; the core runs one at a time too).

export type { TestState };

export interface TestRuns {
  dir: string | null;
  tests: TestView[];
  loadError: string | null;
  states: Record<string, TestState>;
  /** The queue's progress while it runs: how many are done of how many. */
  progress: { done: number; total: number; current: string | null } | null;
  run(names: string[]): void;
  stop(): void;
  reload(): void;
}

export function useTestRuns(): TestRuns {
  const [dir, setDir] = useState<string | null>(null);
  const [tests, setTests] = useState<TestView[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [states, setStates] = useState<Record<string, TestState>>({});
  const [progress, setProgress] = useState<TestRuns['progress']>(null);
  const stopped = useRef(false);
  const busy = useRef(false);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
      stopped.current = true;
    },
    [],
  );

  const reload = useCallback(() => {
    invoke('tests.list', {}).then(
      (r) => {
        if (!alive.current) return;
        setDir(r.dir);
        setTests(r.tests);
        setLoadError(null);
      },
      (err) => alive.current && setLoadError(describeError(err)),
    );
  }, []);
  useEffect(reload, [reload]);

  const run = useCallback((names: string[]) => {
    if (busy.current || names.length === 0) return;
    busy.current = true;
    stopped.current = false;
    void runQueue(names, {
      // A long command: Esc cancels the running test (the core stops its task) and the queue.
      run: (name) =>
        runLong(`Running test ${name}`, (signal) => invoke('tests.run', { name }, { signal })).then(
          (result): TestState => ({ kind: 'done', result }),
          (err): TestState => {
            if ((err as { code?: string }).code === 'canceled') stopped.current = true;
            return { kind: 'error', message: describeError(err) };
          },
        ),
      stopped: () => stopped.current,
      alive: () => alive.current,
      update: (patch) => setStates((s) => ({ ...s, ...patch })),
      progress: setProgress,
    }).finally(() => (busy.current = false));
  }, []);

  return { dir, tests, loadError, states, progress, run, stop: () => (stopped.current = true), reload };
}
