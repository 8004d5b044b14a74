import { useEffect, useState, type FormEvent } from 'react';
import { invoke, useStudio } from '../store';
import { Dialog } from './Dialog';

interface WorkspaceFormProps {
  /** Called after a workspace opened. */
  onDone?(): void;
}

/** Open or create a workspace by folder path, or pick a recent one. */
export function WorkspaceForm({ onDone }: WorkspaceFormProps) {
  const recents = useStudio((s) => s.recents);
  const [dir, setDir] = useState('');
  const [example, setExample] = useState(false);
  const [busy, setBusy] = useState(false);
  // The desktop offers the system's folder dialog; the web shell has only the typed path.
  const [canPick, setCanPick] = useState(false);
  useEffect(() => void useStudio.getState().loadRecents(), []);
  useEffect(() => {
    invoke('studio.capabilities', {}).then(
      (c) => setCanPick(c.pickFolder),
      () => setCanPick(false),
    );
  }, []);

  const run = async (action: 'open' | 'create', path = dir.trim()) => {
    if (!path) return;
    setBusy(true);
    const s = useStudio.getState();
    const ok = action === 'open' ? await s.openWorkspace(path) : await s.createWorkspace(path, example);
    setBusy(false);
    if (ok) onDone?.();
  };
  const pick = async (action: 'open' | 'create') => {
    const picked = await invoke('workspace.pickFolder', { purpose: action }).catch(() => ({ dir: null }));
    if (!picked.dir) return;
    setDir(picked.dir);
    await run(action, picked.dir);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run('open');
  };

  return (
    <form className="workspace-form" onSubmit={submit}>
      <div className="field">
        <label className="field-label" htmlFor="workspace-dir">
          Workspace folder
        </label>
        <input id="workspace-dir" className="input" autoFocus placeholder="/home/me/formations/research" value={dir} onChange={(e) => setDir(e.target.value)} />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={example} onChange={(e) => setExample(e.target.checked)} /> Start a new workspace from the example formation
      </label>
      {canPick ? (
        <div className="dialog-actions">
          <button type="button" className="btn" disabled={busy} onClick={() => void pick('create')}>
            New workspace in a folder…
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => void pick('open')}>
            Choose a folder to open…
          </button>
        </div>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="btn" disabled={busy || !dir.trim()} onClick={() => void run('create')}>
          Create workspace
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy || !dir.trim()}>
          Open workspace
        </button>
      </div>
      {recents.length > 0 ? (
        <div className="recents">
          <h3>Recent</h3>
          <ul>
            {recents.map((r) => (
              <li key={r.dir}>
                <button type="button" className="recent" disabled={!r.exists || busy} onClick={() => void run('open', r.dir)} aria-label={`Open recent workspace ${r.name}`}>
                  <span className="recent-name">{r.name}</span>
                  <span className="recent-dir mono">{r.exists ? r.dir : `${r.dir} (folder is gone)`}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </form>
  );
}

export function WorkspaceDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Open or create a workspace" onClose={onClose}>
      <WorkspaceForm onDone={onClose} />
    </Dialog>
  );
}
