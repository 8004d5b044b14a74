import { useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryView, PublishAnswer } from '../../src-shared/contract';
import { describeError, invoke, onCoreEvent, runLong } from '../store';

// The workspace's history as the History panel and the Expose panel show it: read with
// history.list, read again whenever the core says a step was added (a save, a restore, a publish).

export interface History {
  history: HistoryView | null;
  error: string | null;
  busy: string | null;
  /** The last publish that was refused or overridden, with its test results. */
  publishAnswer: PublishAnswer | null;
  restore(version: string): Promise<void>;
  publish(opts: { version?: string; override?: boolean }): Promise<void>;
  clearPublish(): void;
}

export function useHistory(): History {
  const [history, setHistory] = useState<HistoryView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [publishAnswer, setPublishAnswer] = useState<PublishAnswer | null>(null);
  const alive = useRef(true);

  const reload = useCallback(() => {
    invoke('history.list', {}).then(
      (h) => alive.current && (setHistory(h), setError(null)),
      (err) => alive.current && setError(describeError(err)),
    );
  }, []);
  useEffect(() => {
    alive.current = true;
    reload();
    const off = onCoreEvent('history.changed', reload);
    return () => {
      alive.current = false;
      off();
    };
  }, [reload]);

  const act = async (what: string, run: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await run();
    } catch (err) {
      if (alive.current) setError(describeError(err));
    } finally {
      if (alive.current) setBusy(null);
      reload();
    }
  };

  return {
    history,
    error,
    busy,
    publishAnswer,
    restore: (version) => act('restore', async () => void (await invoke('history.restore', { version }))),
    publish: (opts) =>
      act('publish', async () => {
        // Its tests can take long: Esc stops them, and nothing is published.
        const answer = await runLong('Publishing (running the tests first)', (signal) =>
          invoke('history.publish', opts, { signal }),
        );
        if (alive.current) setPublishAnswer(answer);
      }),
    clearPublish: () => setPublishAnswer(null),
  };
}
