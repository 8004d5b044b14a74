import { useState } from 'react';
import type { StepView, VersionDiffView } from '../../../src-shared/contract';
import { Dialog } from '../../ui/Dialog';
import { describeError, invoke } from '../../store';
import { PublishOutcome } from './PublishOutcome';
import { VersionDiff } from './VersionDiff';
import { useHistory } from '../../ui/useHistory';
import './history.css';
import { formatDateTime } from '../../ui/time';

// The History panel: every save is a step (who, when, what, which capsules); the changes of any
// step or between a step and the draft, permissions named; restore a step as a new one; publish
// the draft (tests first) or an earlier version (roll back).

const when = (seconds: number) => formatDateTime(seconds * 1000);

export function HistoryDialog({ onClose }: { onClose(): void }) {
  const h = useHistory();
  const [diff, setDiff] = useState<VersionDiffView | null>(null);
  const [diffError, setDiffError] = useState<string | null>(null);
  const steps = h.history?.steps ?? [];
  const published = h.history?.published ?? null;

  const compare = (from: string, to?: string) => {
    setDiffError(null);
    invoke('history.diff', to ? { from, to } : { from }).then(setDiff, (err) => setDiffError(describeError(err)));
  };
  const changesOf = (s: StepView, i: number) => {
    const before = steps[i + 1];
    if (before) compare(before.short, s.short);
    else setDiffError(`${s.short} is the first step listed: compare it with the draft instead.`);
  };

  return (
    <Dialog title="History" onClose={onClose}>
      <div className="history" data-testid="history">
        <div className="history-head">
          <p role="status" aria-label="Published version">
            {published ? (
              <>
                Callers get <span className="mono">{published.short}</span>, published{' '}
                {formatDateTime(published.publishedAt)}
                {published.overridden ? ` with failing tests overridden (${published.overridden.join(', ')})` : ''}.
              </>
            ) : (
              'Nothing published yet: exposed capsules are served from their running draft.'
            )}
          </p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={h.busy !== null}
            onClick={() => void h.publish({})}
          >
            {h.busy === 'publish' ? 'Running tests…' : 'Publish draft'}
          </button>
          {published ? (
            <button type="button" className="btn" onClick={() => compare(published.version)}>
              What the draft changes
            </button>
          ) : null}
        </div>
        {h.error ? (
          <p className="error-text" role="alert">
            {h.error}
          </p>
        ) : null}
        {h.publishAnswer ? (
          <PublishOutcome
            answer={h.publishAnswer}
            busy={h.busy !== null}
            onOverride={() => void h.publish({ override: true })}
            onDismiss={h.clearPublish}
          />
        ) : null}
        <div className="history-body">
          <div className="history-side">
            {h.history && !h.history.started ? (
              <p className="muted">
                No history yet: it starts with the next save (the Studio creates a git repository in the workspace
                folder).
              </p>
            ) : null}
            <ul className="history-steps" aria-label="Steps">
              {steps.map((s, i) => (
                <li key={s.version} className="history-step" aria-label={`Step ${s.short}: ${s.message}`}>
                  <div>
                    <span className="mono">{s.short}</span> {s.message.split('\n')[0]}
                    {published?.version === s.version ? <span className="history-badge">published</span> : null}
                  </div>
                  <div className="muted">
                    {s.author} · {when(s.time)}
                    {s.capsules.length ? ` · ${s.capsules.join(', ')}` : ''}
                  </div>
                  <div className="history-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => changesOf(s, i)}
                      aria-label={`Changes in ${s.short}`}
                    >
                      Changes
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => compare(s.short)}
                      aria-label={`Compare ${s.short} with the draft`}
                    >
                      vs draft
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={h.busy !== null}
                      onClick={() => void h.restore(s.short)}
                      aria-label={`Restore ${s.short}`}
                    >
                      Restore
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={h.busy !== null || published?.version === s.version}
                      onClick={() => void h.publish({ version: s.short })}
                      aria-label={`Publish ${s.short}`}
                    >
                      Publish
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </div>
          <div className="history-detail" aria-label="Diff">
            {diffError ? <p className="error-text">{diffError}</p> : null}
            {diff ? (
              <VersionDiff diff={diff} />
            ) : (
              <p className="muted">Choose Changes on a step, or compare it with the draft.</p>
            )}
          </div>
        </div>
      </div>
    </Dialog>
  );
}
