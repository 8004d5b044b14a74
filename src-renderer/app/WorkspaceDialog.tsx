import { useEffect, useState, type FormEvent } from 'react';
import { exposureOf, invoke, useStudio } from '../store';
import { Dialog } from '../ui/Dialog';
import { FolderBrowser } from './FolderBrowser';

interface WorkspaceFormProps {
  /** Called after a workspace opened. */
  onDone?(): void;
}

/** The running capsules outside callers reach through the gateway, said before they may stop. */
function exposedWords(names: readonly string[]): string {
  return names.length === 1
    ? `${names[0]} is exposed: outside callers lose it if it stops.`
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are exposed: outside callers lose them if they stop.`;
}

/** Open or create a workspace by folder path, or pick a recent one. */
export function WorkspaceForm({ onDone }: WorkspaceFormProps) {
  const recents = useStudio((s) => s.recents);
  const [dir, setDir] = useState('');
  const [example, setExample] = useState(false);
  const [busy, setBusy] = useState(false);
  // Leaving a workspace whose capsules run: asked first (stop them, keep them running, or stay).
  // The exposed ones are named: outside callers lose them if they stop.
  const [leaving, setLeaving] = useState<{
    action: 'open' | 'create';
    path: string;
    names: string[];
    exposed: string[];
  } | null>(null);
  // The desktop offers the system's folder dialog; the web shell browses the folders the core lists.
  const [canPick, setCanPick] = useState<boolean | null>(null);
  const [browsing, setBrowsing] = useState(false);
  useEffect(() => void useStudio.getState().loadRecents(), []);
  useEffect(() => {
    invoke('studio.capabilities', {}).then(
      (c) => setCanPick(c.pickFolder),
      () => setCanPick(false),
    );
  }, []);

  const go = async (action: 'open' | 'create', path: string, running?: 'stop' | 'keep') => {
    setLeaving(null);
    setBusy(true);
    const s = useStudio.getState();
    const ok =
      action === 'open' ? await s.openWorkspace(path, running) : await s.createWorkspace(path, example, running);
    setBusy(false);
    if (ok) onDone?.();
  };
  const run = async (action: 'open' | 'create', path = dir.trim()) => {
    if (!path) return;
    const s = useStudio.getState();
    const ids = s.capsuleIds.filter((id) => !['stopped', 'failed'].includes(s.capsules[id].state));
    const names = ids.map((id) => s.capsules[id].name);
    if (names.length && s.workspace && s.workspace.dir !== path) {
      const exposed = ids.filter((id) => exposureOf(s, id)).map((id) => s.capsules[id].name);
      setLeaving({ action, path, names, exposed });
      return;
    }
    await go(action, path);
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
        <input
          id="workspace-dir"
          className="input"
          autoFocus
          aria-describedby="workspace-dir-hint"
          placeholder="/home/me/formations/research"
          value={dir}
          onChange={(e) => setDir(e.target.value)}
        />
        <span id="workspace-dir-hint" className="field-hint">
          A name without a leading / (such as research, or ~/formations/research) is a folder in your home folder; the
          toolbar shows its full path once it opens.
        </span>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={example} onChange={(e) => setExample(e.target.checked)} /> Start a new workspace
        from the example formation
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
      ) : canPick === false ? (
        browsing ? (
          <FolderBrowser
            busy={busy}
            onVisit={setDir}
            onOpen={(path) => void run('open', path)}
            onCreate={(path) => void run('create', path)}
          />
        ) : (
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => setBrowsing(true)}>
              Browse folders…
            </button>
          </div>
        )
      ) : null}
      {leaving ? (
        <div className="workspace-leaving" role="group" aria-label="Running capsules">
          <p>
            {leaving.names.length === 1
              ? `${leaving.names[0]} is`
              : `${leaving.names.length} capsules (${leaving.names.join(', ')}) are`}{' '}
            running in {useStudio.getState().workspace?.name}. What becomes of{' '}
            {leaving.names.length === 1 ? 'it' : 'them'}?
          </p>
          {leaving.exposed.length ? <p className="workspace-exposed">{exposedWords(leaving.exposed)}</p> : null}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => setLeaving(null)}>
              Cancel
            </button>
            <button type="button" className="btn" onClick={() => void go(leaving.action, leaving.path, 'keep')}>
              Keep running
            </button>
            <button
              type="button"
              className="btn btn-danger"
              autoFocus
              onClick={() => void go(leaving.action, leaving.path, 'stop')}
            >
              Stop and {leaving.action === 'open' ? 'open' : 'create'}
            </button>
          </div>
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
                <button
                  type="button"
                  className="recent"
                  disabled={!r.exists || busy}
                  onClick={() => void run('open', r.dir)}
                  aria-label={`Open recent workspace ${r.name}`}
                >
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
