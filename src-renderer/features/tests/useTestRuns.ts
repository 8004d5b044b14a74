import { useCallback, useEffect, useRef, useState } from 'react';
import type { TestResultView, TestView } from '../../../src-shared/contract';
import { describeError, invoke } from '../../store';

// The Tests panel's state: the workspace's tests, each one's last result, and a queue run one
// test at a time (the core runs one at a time too). Stop lets the running test finish (it is
// bounded by its own timeout_ms) and runs no more.

export type TestState = { kind: 'idle' } | { kind: 'queued' } | { kind: 'running' } | { kind: 'done'; result: TestResultView } | { kind: 'error'; message: string };

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
    setStates((s) => ({ ...s, ...Object.fromEntries(names.map((n) => [n, { kind: 'queued' } as TestState])) }));
    void (async () => {
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (stopped.current) {
          if (alive.current) setStates((s) => ({ ...s, ...Object.fromEntries(names.slice(i).map((n) => [n, { kind: 'idle' } as TestState])) }));
          break;
        }
        setProgress({ done: i, total: names.length, current: name });
        setStates((s) => ({ ...s, [name]: { kind: 'running' } }));
        const next: TestState = await invoke('tests.run', { name }).then(
          (result): TestState => ({ kind: 'done', result }),
          (err): TestState => ({ kind: 'error', message: describeError(err) }),
        );
        if (!alive.current) return;
        setStates((s) => ({ ...s, [name]: next }));
      }
      busy.current = false;
      if (alive.current) setProgress(null);
    })();
  }, []);

  return { dir, tests, loadError, states, progress, run, stop: () => (stopped.current = true), reload };
}
