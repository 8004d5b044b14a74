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
          <kbd>Shift</kbd>+click or <kbd>Shift</kbd>+drag selects several; right-click (or <kbd>Shift</kbd>+
          <kbd>F10</kbd>) for actions
        </li>
      </ul>
    </div>
  );
}
