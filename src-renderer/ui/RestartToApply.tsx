import { useStudio } from '../store';

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
        <span className="restart-to-apply-text" title={compact ? reason : undefined}>
          {compact ? short : reason}
        </span>
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
