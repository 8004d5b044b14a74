import { useState } from 'react';
import { Dialog } from '../../ui/Dialog';
import { TestResult } from '../../ui/TestResult';
import { useTestRuns, type TestState } from './useTestRuns';
import './tests.css';

// The Tests panel: the workspace's saved tests (what `capsule test` runs), run one or all against
// the current manifests, offline; pass or fail per test, and for the selected one its
// expectations beside what the run did.

function stateWord(s: TestState | undefined): { word: string; tone: string } {
  if (!s || s.kind === 'idle') return { word: 'not run', tone: 'idle' };
  if (s.kind === 'queued') return { word: 'queued', tone: 'idle' };
  if (s.kind === 'running') return { word: 'running…', tone: 'busy' };
  if (s.kind === 'error') return { word: 'error', tone: 'fail' };
  return s.result.passed ? { word: 'passed', tone: 'pass' } : { word: 'failed', tone: 'fail' };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function TestsDialog({ onClose }: { onClose(): void }) {
  const t = useTestRuns();
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = t.tests.find((x) => x.name === chosen) ?? t.tests[0];
  const running = t.progress !== null;
  const state = selected ? t.states[selected.name] : undefined;
  const counts = Object.values(t.states).reduce(
    (c, s) =>
      s.kind === 'done'
        ? s.result.passed
          ? { ...c, passed: c.passed + 1 }
          : { ...c, failed: c.failed + 1 }
        : s.kind === 'error'
          ? { ...c, failed: c.failed + 1 }
          : c,
    { passed: 0, failed: 0 },
  );

  return (
    <Dialog title="Tests" onClose={onClose} closeButton>
      <div className="tests" data-testid="tests">
        <div className="tests-side">
          <p className="muted">
            Saved runs in <span className="mono">{t.dir ?? 'tests/'}</span>, replayed offline against the current
            manifests (as <code>capsule test</code>). Save one from a session in the sessions browser.
          </p>
          <div className="tests-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={running || t.tests.length === 0}
              onClick={() => t.run(t.tests.map((x) => x.name))}
            >
              Run all
            </button>
            <button
              type="button"
              className="btn"
              disabled={!running}
              onClick={t.stop}
              title="The running test finishes (each task is bounded by its timeout); no more start"
            >
              Stop
            </button>
            <button type="button" className="btn" disabled={running} onClick={t.reload}>
              Reload
            </button>
          </div>
          <p className="tests-progress" role="status" aria-label="Test progress">
            {t.progress
              ? `Running ${t.progress.done + 1} of ${t.progress.total}: ${t.progress.current}…`
              : counts.passed + counts.failed > 0
                ? `${counts.passed} passed, ${counts.failed} failed`
                : `${t.tests.length} test${t.tests.length === 1 ? '' : 's'}`}
          </p>
          {t.loadError ? (
            <p className="error-text" role="alert">
              {t.loadError}
            </p>
          ) : null}
          {t.tests.length === 0 && !t.loadError ? (
            <p className="muted">No tests yet. Open Sessions, choose a run, and “Save as test”.</p>
          ) : null}
          <ul className="tests-list" aria-label="Tests">
            {t.tests.map((x) => {
              const s = t.states[x.name];
              const w = stateWord(s);
              return (
                <li key={x.name} className="tests-item" aria-current={x === selected || undefined}>
                  <button
                    type="button"
                    className="tests-name"
                    onClick={() => setChosen(x.name)}
                    aria-label={`Show test ${x.name}`}
                  >
                    <span className="mono">{x.name}</span>
                    <span className="muted">
                      {x.entry
                        ? `${x.tasks.length} task${x.tasks.length === 1 ? '' : 's'} to ${x.entry}`
                        : 'unreadable'}
                    </span>
                  </button>
                  <span className="tests-state" data-tone={w.tone} aria-label={`${x.name}: ${w.word}`}>
                    {w.word}
                    {s?.kind === 'done' ? ` · ${seconds(s.result.durationMs)}` : ''}
                  </span>
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={running}
                    onClick={() => (setChosen(x.name), t.run([x.name]))}
                    aria-label={`Run test ${x.name}`}
                  >
                    Run
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
        <div className="tests-detail" aria-label="Test detail">
          {selected ? (
            <>
              <div className="tests-detail-head">
                <h3 className="mono">{selected.name}</h3>
                <span className="tests-state" data-tone={stateWord(state).tone}>
                  {stateWord(state).word}
                </span>
                {selected.recordedFrom ? (
                  <span className="muted mono">recorded from {selected.recordedFrom}</span>
                ) : null}
              </div>
              {selected.error ? (
                <p className="error-text" role="alert">
                  {selected.error}
                </p>
              ) : null}
              {state?.kind === 'error' ? (
                <p className="error-text" role="alert">
                  {state.message}
                </p>
              ) : null}
              <TestResult test={selected} result={state?.kind === 'done' ? state.result : undefined} />
            </>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
