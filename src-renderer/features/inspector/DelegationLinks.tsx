import { delegationPhase, useStudio } from '../../store';
import { DELEGATION_LABEL } from '../../ui/delegationWords';
import type { DelegationView } from './taskTrace';

/** The delegations the task made; each child task opens in its capsule's Tasks tab when that capsule runs here. */
export function DelegationLinks({ taskId, list }: { taskId: string; list: DelegationView[] }) {
  if (list.length === 0) return <p className="muted">This task delegated nothing.</p>;
  return (
    <ul className="delegation-links" aria-label="Delegations made">
      {list.map((d) => (
        <DelegationLink key={d.callId} taskId={taskId} d={d} />
      ))}
    </ul>
  );
}

function DelegationLink({ taskId, d }: { taskId: string; d: DelegationView }) {
  const phase = useStudio((s) => delegationPhase(s, taskId, d));
  // The child task is held by the session it ran in: a formation capsule still running that session.
  const capsuleId = useStudio((s) =>
    d.childSessionId ? s.capsuleIds.find((id) => s.capsules[id]?.sessionId === d.childSessionId) : undefined,
  );
  const name = d.capsule ?? d.to;
  return (
    <li className="delegation-link" data-state={phase}>
      <span>→ {name === '*' ? 'every reachable worker' : name}</span>
      <span className="delegation-state">
        {DELEGATION_LABEL[phase]}
        {d.peerState ? ` (${d.peerState.replace('TASK_STATE_', '').toLowerCase()})` : ''}
      </span>
      {d.peerTaskId && capsuleId ? (
        <button
          type="button"
          className="link-button mono"
          aria-label={`Open ${name}'s task ${d.peerTaskId}`}
          onClick={() => useStudio.getState().openTask(capsuleId, d.peerTaskId!)}
        >
          {d.peerTaskId}
        </button>
      ) : d.peerTaskId ? (
        <span
          className="mono muted"
          title={
            d.childSessionId
              ? `Its session ${d.childSessionId} no longer runs in this Studio; find it in Sessions.`
              : undefined
          }
        >
          {d.peerTaskId}
        </span>
      ) : null}
      {d.error ? <div className="error-text delegation-error">{d.error}</div> : null}
    </li>
  );
}
