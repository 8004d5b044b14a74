import { useStudio } from '../store';

/** What the side panel shows when nothing is selected: the formation at a glance. */
export function FormationSummary() {
  const workspace = useStudio((s) => s.workspace);
  const counts = useStudio((s) => {
    let running = 0;
    let invalid = 0;
    for (const id of s.capsuleIds) {
      const c = s.capsules[id];
      if (c.state !== 'stopped' && c.state !== 'failed') running++;
      if (c.issues.length > 0) invalid++;
    }
    return `${s.capsuleIds.length}|${running}|${invalid}|${s.remoteIds.length}|${s.edgeViews.length}`;
  });
  const [capsules, running, invalid, remotes, edges] = counts.split('|').map(Number);
  return (
    <div className="summary">
      <h2 className="side-title">{workspace?.name}</h2>
      <dl className="summary-grid">
        <dt>Capsules</dt>
        <dd>{capsules}</dd>
        <dt>Running</dt>
        <dd>{running}</dd>
        <dt>Remote agents</dt>
        <dd>{remotes}</dd>
        <dt>Connections</dt>
        <dd>{edges}</dd>
        <dt>With problems</dt>
        <dd className={invalid > 0 ? 'error-text' : undefined}>{invalid}</dd>
      </dl>
      <p className="muted">Select a capsule to edit its manifest, see its tasks and follow its trace live.</p>
      <h3 className="summary-sub">Keys</h3>
      <ul className="summary-keys muted">
        <li>
          <kbd>Delete</kbd> removes the selected edge or node
        </li>
        <li>
          <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo, <kbd>Shift</kbd>+<kbd>Ctrl</kbd>+<kbd>Z</kbd> redo
        </li>
        <li>
          <kbd>Ctrl</kbd>+<kbd>K</kbd> finds a capsule or runs a command
        </li>
        <li>
          <kbd>Shift</kbd>+click or <kbd>Shift</kbd>+drag selects several; right-click (or <kbd>Shift</kbd>+<kbd>F10</kbd>) for actions
        </li>
      </ul>
    </div>
  );
}

/** A remote agent's card, or why it could not be read. */
export function RemoteDetails({ id }: { id: string }) {
  const remote = useStudio((s) => s.remotes[id]);
  if (!remote) return null;
  const card = remote.card;
  return (
    <div className="summary">
      <h2 className="side-title">{card?.name ?? remote.url}</h2>
      <p className="mono muted" style={{ overflowWrap: 'anywhere' }}>
        {remote.url}
      </p>
      {remote.error ? (
        <p className="error-text" role="alert">
          {remote.error}
        </p>
      ) : null}
      {card ? (
        <>
          <p>{card.description}</p>
          <h3 className="summary-sub">Skills</h3>
          <ul>
            {card.skills.map((s) => (
              <li key={s.id}>
                <strong>{s.name}</strong> <span className="muted">{s.description}</span>
              </li>
            ))}
          </ul>
          <h3 className="summary-sub">Interfaces</h3>
          <ul className="mono">
            {card.interfaces.map((i) => (
              <li key={i.url}>
                {i.protocolBinding} {i.url}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <button type="button" className="btn" onClick={() => void useStudio.getState().refreshRemote(id)}>
        Fetch card again
      </button>
    </div>
  );
}
