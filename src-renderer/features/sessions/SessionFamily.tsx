import { useEffect } from 'react';
import type { SessionItemView } from '../../../src-shared/contract';
import { useStudio } from '../../store';

const short = (id: string) => `…${id.slice(-6)}`;

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
          Forked from <Relative id={origin.sessionId} item={family?.ancestors[0]} pair={[origin.sessionId, session.id]} /> task <span className="mono">{short(origin.taskId)}</span> at turn {origin.turn}
        </span>
      ) : null}
      {family?.forks.length ? (
        <span className="family-part">
          Forks ({family.forks.length}):
          <ul className="family-forks" aria-label="Forks">
            {family.forks.map((f) => (
              <li key={f.id}>
                <Relative id={f.id} item={f} pair={[session.id, f.id]} />
                {f.forkedFrom ? <span className="muted"> turn {f.forkedFrom.turn}</span> : null}
              </li>
            ))}
          </ul>
        </span>
      ) : null}
    </div>
  );
}

/** A related session: open it, or compare it with the one opened (`pair`: the origin on the left). */
function Relative({ id, item, pair }: { id: string; item?: SessionItemView; pair: [string, string] }) {
  const st = useStudio.getState();
  return (
    <span className="family-link">
      <button type="button" className="fork-link mono" aria-label={`Open session ${id}`} onClick={() => {
          st.closeComparison();
          void st.openSession(id);
        }}>
        {item?.capsule ?? 'session'} {short(id)}
      </button>
      <button type="button" className="btn btn-small" aria-label={`Compare with ${id}`} onClick={() => void st.compareSessions(pair[0], pair[1])}>
        Compare
      </button>
    </span>
  );
}
