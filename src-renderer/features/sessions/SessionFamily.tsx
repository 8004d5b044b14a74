import { useEffect } from 'react';
import type { SessionItemView } from '../../../src-shared/contract';
import { useStudio } from '../../store';
import { shortId as short } from '../../ui/ShortId';

/** The opened session's fork family: what it was forked from and the forks made of it, each one click from its trace or a comparison. */
export function SessionFamily({ session }: { session: SessionItemView }) {
  const family = useStudio((s) => (s.family?.sessionId === session.id ? s.family.view : null));
  useEffect(() => {
    void useStudio.getState().loadFamily(session.id);
  }, [session.id]);
  const origin = session.forkedFrom;
  if (!origin && !family?.forks.length && !family?.ancestors.length) return null;
  return (
    <div className="session-family" role="group" aria-label="Fork family">
      {origin ? (
        <span className="family-part">
          Forked from <OpenLink id={origin.sessionId} item={family?.ancestors[0]} /> task{' '}
          <span className="mono">{short(origin.taskId)}</span> at turn {origin.turn}
          <CompareButton id={origin.sessionId} pair={[origin.sessionId, session.id]} />
        </span>
      ) : null}
      {family?.forks.length ? (
        <span className="family-part">
          Forks ({family.forks.length}):
          <ul className="family-forks" aria-label="Forks">
            {family.forks.map((f) => (
              <li key={f.id}>
                <OpenLink id={f.id} item={f} />
                {f.forkedFrom ? <span className="muted"> at turn {f.forkedFrom.turn}</span> : null}
                <CompareButton id={f.id} pair={[session.id, f.id]} />
              </li>
            ))}
          </ul>
        </span>
      ) : null}
    </div>
  );
}

/** A related session, opened in the browser on click. */
function OpenLink({ id, item }: { id: string; item?: SessionItemView }) {
  return (
    <button
      type="button"
      className="fork-link mono"
      aria-label={`Open session ${id}`}
      onClick={() => {
        useStudio.getState().closeComparison();
        void useStudio.getState().openSession(id);
      }}
    >
      {item?.capsule ?? 'session'} {short(id)}
    </button>
  );
}

/** Compares the opened session with a related one (`pair`: the origin on the left). */
function CompareButton({ id, pair }: { id: string; pair: [string, string] }) {
  return (
    <button
      type="button"
      className="btn btn-small"
      aria-label={`Compare with ${id}`}
      onClick={() => void useStudio.getState().compareSessions(pair[0], pair[1])}
    >
      Compare
    </button>
  );
}
