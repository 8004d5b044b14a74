import { Suspense, useState } from 'react';
import { useStudio } from '../store';
import { setTheme, useThemeChoice, type ThemeChoice } from '../ui/useTheme';
import { WorkspaceDialog } from './lazyFeatures';
import { openPalette } from '../ui/paletteState';
import { SessionsButton } from '../features/sessions';
import { SecretsButton } from '../features/secrets';
import { ToolsMenu } from './ToolsMenu';
import { RuntimeChips } from '../features/runtimes';
import { LAUNCH_ALL, STOP_ALL } from '../ui/actionWords';

/** The folder a path is in ("/" for a folder at the root), in the path's own separators. */
function parentOf(dir: string): string {
  const cut = dir.replace(/[\\/]+$/, '').search(/[\\/][^\\/]*$/);
  return cut > 0 ? dir.slice(0, cut) : dir.slice(0, 1) === '/' ? '/' : dir;
}

/** The top bar: which workspace is open, the formation-wide actions, undo/redo and theme. */
export function Toolbar() {
  const workspace = useStudio((s) => s.workspace);
  const connection = useStudio((s) => s.connection);
  const linked = useStudio((s) => s.linked);
  const movedTo = useStudio((s) => s.movedTo);
  const linkLabel = !linked
    ? movedTo
      ? 'Moved'
      : 'Connection lost'
    : connection === 'ready'
      ? 'Connected'
      : connection === 'error'
        ? 'Disconnected'
        : connection === 'connecting'
          ? 'Connecting…'
          : 'No workspace';
  const canUndo = useStudio((s) => s.canUndo);
  const canRedo = useStudio((s) => s.canRedo);
  const busyAll = useStudio((s) => s.busyAll);
  const anyRunning = useStudio((s) =>
    s.capsuleIds.some((id) => s.capsules[id].state !== 'stopped' && s.capsules[id].state !== 'failed'),
  );
  const hasCapsules = useStudio((s) => s.capsuleIds.length > 0);
  const theme = useThemeChoice();
  const [picking, setPicking] = useState(false);
  const s = useStudio.getState;

  return (
    <header className="toolbar">
      <div className="toolbar-brand" title="Capsule Studio">
        <span className="toolbar-logo" aria-hidden="true" />
        <span className="toolbar-brand-name">Capsule Studio</span>
      </div>
      <span className="toolbar-sep" aria-hidden="true" />
      {/* The folder's name, and under it the folder it is in (cut at its start when long); the whole path on hover. */}
      <div className="toolbar-workspace" role="group" aria-label="Workspace" title={workspace?.dir}>
        <span className="toolbar-workspace-name" data-testid="workspace-name">
          {workspace?.name ?? 'No workspace'}
        </span>
        {workspace ? (
          <span className="toolbar-workspace-path" data-testid="workspace-where">
            <bdi>in {parentOf(workspace.dir)}</bdi>
          </span>
        ) : null}
      </div>
      <button type="button" className="btn" onClick={() => setPicking(true)}>
        Open…
      </button>
      <span className="toolbar-sep" aria-hidden="true" />
      <div className="toolbar-group">
        <button
          type="button"
          className="btn"
          disabled={!canUndo}
          onClick={() => void s().undo()}
          aria-label="Undo"
          title="Undo (Ctrl+Z)"
        >
          ↶ Undo
        </button>
        <button
          type="button"
          className="btn"
          disabled={!canRedo}
          onClick={() => void s().redo()}
          aria-label="Redo"
          title="Redo (Shift+Ctrl+Z)"
        >
          ↷ Redo
        </button>
      </div>
      <span className="toolbar-spacer" />
      <button
        type="button"
        className="btn"
        onClick={openPalette}
        aria-label="Command palette"
        aria-keyshortcuts="Control+K Meta+K"
        title="Find a capsule or run a command (Ctrl+K)"
      >
        Find…
      </button>
      <RuntimeChips />
      <SessionsButton />
      <SecretsButton />
      <ToolsMenu />
      {/* The link's state is told here once; while it is down the banner below says what happens. */}
      <span
        className="connection"
        data-status={!linked ? 'error' : connection === 'ready' ? 'ready' : connection === 'error' ? 'error' : 'other'}
        title={linkLabel}
      >
        <span className="connection-dot" aria-hidden="true" />
        <span className="connection-label">{linkLabel}</span>
      </span>
      <select
        className="select"
        aria-label="Theme"
        value={theme}
        onChange={(e) => setTheme(e.target.value as ThemeChoice)}
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
      <div className="toolbar-group">
        <button type="button" className="btn" disabled={busyAll || !anyRunning} onClick={() => void s().requestStop()}>
          {STOP_ALL}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busyAll || !hasCapsules}
          onClick={() => void s().launchAll()}
        >
          ▶ {LAUNCH_ALL}
        </button>
      </div>
      {picking ? (
        <Suspense fallback={null}>
          <WorkspaceDialog onClose={() => setPicking(false)} />
        </Suspense>
      ) : null}
    </header>
  );
}
