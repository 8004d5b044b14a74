import { useEffect, useState } from 'react';
import type { SessionItemView } from '../../../src-shared/contract';
import { useStudio } from '../../store';
import { shortId } from '../../ui/ShortId';
import { SessionFilters } from './SessionFilters';
import { SessionTrace } from './SessionTrace';
import { ForkForm } from './ForkForm';
import { CompareView } from './CompareView';
import { SearchSnippet } from './SearchSnippet';
import './fork.css';
import { formatDateTime } from '../../ui/time';

const when = (ms: number | null) => (ms ? formatDateTime(ms) : '—');

/** Filters and the list of sessions on the left, the opened session's trace on the right. */
export function SessionsBrowser() {
  const sessions = useStudio((s) => s.sessionList);
  const loading = useStudio((s) => s.sessionsLoading);
  const store = useStudio((s) => s.traceStore);
  const openedId = useStudio((s) => s.openedSession?.session.id);
  const forking = useStudio((s) => s.forkDraft !== null);
  const comparing = useStudio((s) => s.comparison !== null);
  const indexing = store?.indexing;
  // A big new trace is still being indexed: the list fills in as it goes.
  useEffect(() => {
    if (!indexing) return;
    const t = setTimeout(() => void useStudio.getState().loadSessions(), 1000);
    return () => clearTimeout(t);
  }, [indexing]);
  return (
    <div className="sessions-browser">
      <section className="sessions-left" aria-label="Find a session">
        <SessionFilters />
        {store && !store.available ? (
          <p className="sessions-warning" role="status">
            {store.message}
          </p>
        ) : null}
        {indexing ? (
          <p className="muted sessions-indexing" role="status">
            Indexing traces…{indexing.total ? ` ${Math.floor((100 * indexing.done) / indexing.total)}%` : ''}
          </p>
        ) : null}
        <p className="muted sessions-count" role="status">
          {loading ? 'Searching…' : `${sessions.length} session${sessions.length === 1 ? '' : 's'}`}
        </p>
        <ul className="sessions-list" aria-label="Sessions">
          {sessions.map((s) => (
            <SessionItem key={s.id} s={s} active={s.id === openedId} />
          ))}
        </ul>
      </section>
      <section className="sessions-right" aria-label="Session trace">
        {forking ? (
          <ForkForm />
        ) : comparing ? (
          <CompareView />
        ) : openedId ? (
          <SessionTrace />
        ) : (
          <p className="muted sessions-empty">Open a session to read its trace.</p>
        )}
      </section>
    </div>
  );
}

function SessionItem({ s, active }: { s: SessionItemView; active: boolean }) {
  const [opening, setOpening] = useState(false);
  useEffect(() => setOpening(false), [active]);
  return (
    <li>
      <button
        type="button"
        className="session-item"
        aria-current={active ? 'true' : undefined}
        aria-label={`Open session of ${s.capsule ?? 'unknown capsule'} started ${when(s.startedAt)}, ${s.status}`}
        disabled={opening}
        onClick={() => {
          setOpening(true);
          useStudio.getState().closeComparison();
          void useStudio
            .getState()
            .openSession(s.id)
            .finally(() => setOpening(false));
        }}
      >
        <span className="session-item-top">
          <span className="session-capsule">{s.capsule ?? '?'}</span>
          <span className="session-status" data-status={s.status}>
            {s.status}
          </span>
        </span>
        <span className="session-item-meta muted">
          {when(s.startedAt)} · {s.tasks} task{s.tasks === 1 ? '' : 's'} · {s.tokensIn + s.tokensOut} tokens ·{' '}
          {s.events} events
        </span>
        <span className="session-id mono">{s.id}</span>
        {s.forkedFrom ? (
          <span className="session-forked muted">
            fork of {shortId(s.forkedFrom.sessionId)} at turn {s.forkedFrom.turn}
          </span>
        ) : null}
        {s.match ? <SearchSnippet match={s.match} /> : null}
      </button>
    </li>
  );
}
