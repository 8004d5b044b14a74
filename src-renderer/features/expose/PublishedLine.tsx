import { useEffect, useState } from 'react';
import type { VersionDiffView } from '../../../src-shared/contract';
import { invoke } from '../../store';
import { useHistory } from '../../ui/useHistory';

// For the Expose panel: which version outside callers get, and what the draft changes from it.

export function PublishedLine({ onOpenHistory }: { onOpenHistory(): void }) {
  const { history } = useHistory();
  const published = history?.published ?? null;
  const [diff, setDiff] = useState<VersionDiffView | null>(null);
  const head = history?.steps[0]?.version;
  useEffect(() => {
    if (!published) return setDiff(null);
    invoke('history.diff', { from: published.version }).then(setDiff, () => setDiff(null));
  }, [published, head]);
  if (!history) return null;
  const changes = diff ? [...diff.capsules.map((c) => `${c.id} ${c.change}`), ...diff.permissions] : [];
  return (
    <div className="expose-version" role="status" aria-label="Version callers get">
      {published ? (
        <p>
          Callers get version <span className="mono">{published.short}</span>.{' '}
          {diff ? (changes.length ? `The draft changes: ${changes.join('; ')}.` : 'The draft is the same.') : ''}
        </p>
      ) : (
        <p className="muted">Nothing published: callers get the running draft.</p>
      )}
      <button type="button" className="btn btn-small" onClick={onOpenHistory}>
        History and publish…
      </button>
    </div>
  );
}
