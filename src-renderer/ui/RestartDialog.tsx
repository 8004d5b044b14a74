import { useStudio } from '../store';
import { Dialog } from './Dialog';

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
