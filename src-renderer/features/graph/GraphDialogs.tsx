import { useState, type FormEvent } from 'react';
import { useStudio } from '../../store';
import { Dialog, FormActions } from '../../ui/Dialog';

/** Asks for a remote agent's URL after the Remote agent item was dropped. */
export function RemoteUrlDialog() {
  const position = useStudio((s) => s.remotePrompt);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!position) return null;
  const close = () => {
    setUrl('');
    setError(null);
    useStudio.getState().askRemoteUrl(null);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(url.trim())) {
      setError('Give an http:// or https:// URL (the agent card or the agent itself).');
      return;
    }
    if (await useStudio.getState().addRemoteAt(url.trim(), position)) close();
  };
  return (
    <Dialog title="Add a remote agent" onClose={close}>
      <form onSubmit={submit} className="field" noValidate>
        <label className="field-label" htmlFor="remote-url">
          Agent URL
        </label>
        <input
          id="remote-url"
          className="input"
          autoFocus
          placeholder="https://agents.example.com/.well-known/agent-card.json"
          value={url}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'remote-url-error' : undefined}
          onChange={(e) => setUrl(e.target.value)}
        />
        {error ? (
          <span id="remote-url-error" className="field-error">
            {error}
          </span>
        ) : null}
        <FormActions onCancel={close} submit={'Add agent'} />
      </form>
    </Dialog>
  );
}

/** Confirms removing nodes: a capsule's manifest file goes too (Undo brings it back). */
export function RemoveDialog() {
  const pending = useStudio((s) => s.pendingRemoval);
  const capsules = useStudio((s) => s.capsules);
  const remotes = useStudio((s) => s.remotes);
  if (!pending) return null;
  const names = pending.nodeIds.map(
    (id) =>
      capsules[id]?.name ??
      remotes[id]?.card?.name ??
      remotes[id]?.url ??
      useStudio.getState().toolServers[id]?.name ??
      id,
  );
  const files = pending.nodeIds.map((id) => capsules[id]?.manifestPath).filter(Boolean);
  const { cancelRemoval, confirmRemoval } = useStudio.getState();
  return (
    <Dialog
      title={names.length === 1 ? `Remove ${names[0]}?` : `Remove ${names.length} nodes?`}
      onClose={cancelRemoval}
    >
      <p style={{ margin: 0 }}>
        {names.length > 1 ? `${names.join(', ')} leave the formation` : 'It leaves the formation'}, with the edges to
        and from it.
        {files.length > 0 ? ` Its manifest file (${files.join(', ')}) is deleted; Undo (Ctrl+Z) brings it back.` : ''}
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={cancelRemoval}>
          Keep
        </button>
        <button type="button" className="btn btn-danger" autoFocus onClick={() => void confirmRemoval()}>
          Remove
        </button>
      </div>
    </Dialog>
  );
}
