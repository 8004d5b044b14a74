import { useEffect, useState } from 'react';
import type { PublishAnswer, TestView } from '../../../src-shared/contract';
import { invoke } from '../../store';
import { TestResult } from '../../ui/TestResult';

// What a publish answered: published (with the tests it ran, or the ones overridden), or refused
// by failing tests, each shown with its expectations beside what the run did, and the one way on:
// publish anyway, which the history records.

export function PublishOutcome({
  answer,
  busy,
  onOverride,
  onDismiss,
}: {
  answer: PublishAnswer;
  busy: boolean;
  onOverride(): void;
  onDismiss(): void;
}) {
  const failing = answer.results.filter((r) => !r.passed);
  const [tests, setTests] = useState<TestView[]>([]);
  // The expectations of the failing tests, read once per answer (a publish replaces the answer whole).
  const anyFailing = failing.length > 0;
  useEffect(() => {
    if (anyFailing)
      invoke('tests.list', {}).then(
        (r) => setTests(r.tests),
        () => setTests([]),
      );
  }, [answer, anyFailing]);

  if (answer.published) {
    return (
      <div className="history-publish" role="status" aria-label="Publish outcome">
        <p>
          Published <span className="mono">{answer.published.short}</span>:{' '}
          {answer.published.overridden
            ? `tests overridden (${answer.published.overridden.join(', ')} failing), as the history records`
            : answer.results.length
              ? `${answer.results.length} test${answer.results.length === 1 ? '' : 's'} passed`
              : 'no tests to run'}
          . Callers get it now.
        </p>
        <button type="button" className="btn btn-small" onClick={onDismiss}>
          OK
        </button>
      </div>
    );
  }
  return (
    <div className="history-publish" role="alert" aria-label="Publish refused">
      <p className="error-text">
        Not published: {failing.length} failing test{failing.length === 1 ? '' : 's'}. Callers keep the version
        published before. Fix the draft and publish again, or publish anyway (the history records it).
      </p>
      {failing.map((r) => {
        const test = tests.find((x) => x.name === r.name) ?? { name: r.name, tasks: [] };
        return (
          <section key={r.name} aria-label={`Failing test ${r.name}`}>
            <h4 className="mono">{r.name}</h4>
            {r.error ? <p className="error-text">{r.error}</p> : null}
            <TestResult test={test} result={r} />
          </section>
        );
      })}
      <div className="history-actions">
        <button type="button" className="btn btn-danger" disabled={busy} onClick={onOverride}>
          Publish anyway
        </button>
        <button type="button" className="btn" onClick={onDismiss}>
          Cancel
        </button>
      </div>
    </div>
  );
}
