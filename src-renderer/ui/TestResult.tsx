import type {
  ActualTaskView,
  ExpectedTaskView,
  MatcherView,
  TestResultView,
  TestView,
} from '../../src-shared/contract';

// One test's expectations beside what its last run did, task by task: the answer, the status and
// every delegation (who was asked what, and the answer), with the rows that differ marked, then
// the differences as a diff (- expected, + actual), as `capsule test` prints them.

function Matcher({ m }: { m: MatcherView | undefined }) {
  if (!m) return <span className="muted">(any)</span>;
  return (
    <>
      <span className="test-kind" data-kind={m.kind}>
        {m.kind}
      </span>{' '}
      <span className="mono">
        {m.kind === 'exact' ? m.text : m.text.replace(/^(contains|matches schema|matches) /, '')}
      </span>
    </>
  );
}

const Text = ({ value }: { value: string | undefined }) =>
  value === undefined ? (
    <span className="muted">(nothing)</span>
  ) : (
    <span className="mono">{JSON.stringify(value)}</span>
  );

function TaskDiff({
  index,
  expected,
  actual,
  wrong,
}: {
  index: number;
  expected: ExpectedTaskView;
  actual: ActualTaskView | undefined;
  wrong: (path: string) => boolean;
}) {
  const at = `task ${index + 1}`;
  const want = expected.delegations ?? [];
  const got = actual?.delegations ?? [];
  const rows = Math.max(want.length, got.length);
  return (
    <section className="test-task" aria-label={`Task ${index + 1}`}>
      <h4>
        Task {index + 1}: <span className="mono">{JSON.stringify(expected.text)}</span>
      </h4>
      <table className="test-diff" aria-label={`Task ${index + 1} expected and actual`}>
        <thead>
          <tr>
            <th />
            <th>Expected</th>
            <th>Actual</th>
          </tr>
        </thead>
        <tbody>
          <tr data-wrong={wrong(`${at}: answer`) || undefined}>
            <th scope="row">Answer</th>
            <td>
              <Matcher m={expected.answer} />
            </td>
            <td>
              <Text value={actual?.answer} />
            </td>
          </tr>
          {expected.status ? (
            <tr data-wrong={wrong(`${at}: status`) || undefined}>
              <th scope="row">Status</th>
              <td className="mono">{expected.status}</td>
              <td className="mono">{actual?.status ?? '(unfinished)'}</td>
            </tr>
          ) : null}
          {Array.from({ length: rows }, (_, j) => {
            const w = want[j];
            const g = got[j];
            return (
              <tr key={j} data-wrong={wrong(`${at}: delegations[${j}]`) || undefined}>
                <th scope="row">Delegation {j + 1}</th>
                <td>
                  {w ? (
                    <div className="test-delegation">
                      <span>
                        {w.from ?? '?'} → {w.to}
                      </span>
                      <span>
                        asked: <Matcher m={w.text} />
                      </span>
                      {w.data ? (
                        <span>
                          data: <Matcher m={w.data} />
                        </span>
                      ) : null}
                      <span>
                        answered: <Matcher m={w.answer} />
                      </span>
                    </div>
                  ) : (
                    <span className="muted">(no delegation)</span>
                  )}
                </td>
                <td>
                  {g ? (
                    <div className="test-delegation">
                      <span>
                        {g.from} → {g.to}
                      </span>
                      <span>
                        asked: <Text value={g.text} />
                      </span>
                      {g.data ? (
                        <span>
                          data: <span className="mono">{JSON.stringify(g.data)}</span>
                        </span>
                      ) : null}
                      <span>
                        answered: <Text value={g.answer} />
                      </span>
                    </div>
                  ) : (
                    <span className="muted">(no delegation)</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function TestResult({ test, result }: { test: TestView; result: TestResultView | undefined }) {
  const paths = result?.mismatches.map((m) => m.path) ?? [];
  const wrong = (prefix: string) =>
    paths.some((p) => p === prefix || p.startsWith(`${prefix}.`) || p.startsWith(`${prefix}[`));
  return (
    <div className="test-result">
      {result?.error ? (
        <p className="error-text" role="alert">
          {result.error}
        </p>
      ) : null}
      {test.tasks.map((t, i) => (
        <TaskDiff key={i} index={i} expected={t} actual={result?.actual?.[i]} wrong={wrong} />
      ))}
      {result && result.mismatches.length > 0 ? (
        <section aria-label="Differences">
          <h4>Differences ({result.mismatches.length})</h4>
          <pre className="test-mismatches mono">
            {result.mismatches.map((m) => (
              <span key={m.path + m.actual} className="test-mismatch">
                {m.path}
                {'\n'}
                <span className="test-minus">{`  - ${m.expected}`}</span>
                {'\n'}
                <span className="test-plus">{`  + ${m.actual}`}</span>
                {'\n'}
              </span>
            ))}
          </pre>
        </section>
      ) : null}
    </div>
  );
}
