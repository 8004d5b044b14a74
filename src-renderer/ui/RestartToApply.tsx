import { useStudio } from '../store';
import { Dialog } from './Dialog';

// A running capsule whose saved manifest changed beyond what applies live (the allow list and peer
// export do): the node and the manifest panel say so, with one Restart button. A busy capsule asks
// whether to wait for its task or restart now. A saved manifest that does not load is never
// offered a Restart (the core refuses it too): the banner says what to fix, and where.

/** "Restart to apply" with its button; nothing when the running session is up to date. */
export function RestartToApply({ id, compact = false }: { id: string; compact?: boolean }) {
  const reason = useStudio((s) => s.capsules[id]?.restartToApply);
  const name = useStudio((s) => s.capsules[id]?.name ?? id);
  const problemLine = useStudio((s) => {
    const first = s.capsules[id]?.issues[0];
    return first ? (first.line ?? 0) : undefined;
  });
  const waiting = useStudio((s) => s.restartsWaiting.includes(id));
  if (!reason) return null;
  const className = compact ? 'restart-to-apply restart-to-apply-compact nodrag' : 'restart-to-apply';
  if (problemLine !== undefined) {
    const short = problemLine ? `Fix line ${problemLine} of the manifest to restart` : 'Fix the manifest to restart';
    return (
      <div className={className} role="status" data-testid="restart-to-apply" data-blocked="true">
        <span className="restart-to-apply-text">{compact ? short : reason}</span>
      </div>
    );
  }
  return (
    <div className={className} role="status" data-testid="restart-to-apply">
      <span className="restart-to-apply-text">{compact ? 'Restart to apply' : `Restart to apply: ${reason}`}</span>
      <button
        type="button"
        className="btn btn-small"
        disabled={waiting}
        aria-label={`Restart ${name} to apply its saved manifest`}
        onClick={() => void useStudio.getState().restartCapsule(id)}
      >
        {waiting ? 'Restarting…' : 'Restart'}
      </button>
    </div>
  );
}

/** Asked when Restart is pressed on a busy capsule. */
export function RestartDialog() {
  const id = useStudio((s) => s.restartAsk);
  const name = useStudio((s) => (id ? (s.capsules[id]?.name ?? id) : ''));
  if (!id) return null;
  const answer = (when: 'idle' | 'now' | null) => void useStudio.getState().answerRestart(when);
  return (
    <Dialog title={`Restart ${name}?`} onClose={() => answer(null)}>
      <p style={{ margin: 0 }}>
        {name} is working on a task. Restart when it and the queued tasks end, or now (they are canceled)?
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => answer(null)}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" onClick={() => answer('now')}>
          Restart now
        </button>
        <button type="button" className="btn btn-primary" autoFocus onClick={() => answer('idle')}>
          When the task ends
        </button>
      </div>
    </Dialog>
  );
}
