import { Suspense } from 'react';
import { useStudio } from '../store';
import {
  GraphCanvas,
  GraphPalette,
  GraphProvider,
  RemoteUrlDialog,
  RemoveDialog,
  ToolServerDialog,
} from '../features/graph';
import { ConsolePanel } from '../features/console';
import { ReplayBar } from '../features/replay';
import { AddressDialog, AttachRuntimeDialog, RuntimeGroups } from '../features/runtimes';
import { ConnectionBanner } from './ConnectionBanner';
import { CommandPalette, RestartDialog, StopConfirm, WorkspaceForm } from './lazyFeatures';
import { LongCommandBar } from './LongCommandBar';
import { Notices } from './Notices';
import { usePaletteOpen } from '../ui/paletteState';
import { useCanvasCovered } from '../ui/usePanelFull';
import { SidePanel } from './SidePanel';
import { Toolbar } from './Toolbar';
import { ToolDialogs } from './ToolsMenu';
import { useShortcuts } from './useShortcuts';

/** The Studio: a welcome screen until a workspace is open, then the formation workbench. */
export function App() {
  useShortcuts();
  const connection = useStudio((s) => s.connection);
  const hasWorkspace = useStudio((s) => s.workspace !== null);
  const replaying = useStudio((s) => s.replay !== null);
  const paletteOpen = usePaletteOpen();
  const covered = useCanvasCovered();
  if (!hasWorkspace) return <Welcome connection={connection} />;
  return (
    <GraphProvider>
      <div className="studio">
        <Toolbar />
        <Banners />
        {/* While a panel lies over the canvas, notices stand here rather than over that panel's content. */}
        {covered ? (
          <div className="notice-strip">
            <Notices />
          </div>
        ) : null}
        <ReplayBar />
        <div className="studio-body">
          <GraphPalette />
          <main className="studio-center" aria-label="Formation" data-replay={replaying || undefined}>
            {/* Notices stand in the canvas's lower left, above the console: never over the side panel's controls. */}
            <div className="canvas-area">
              <GraphCanvas>
                <RuntimeGroups />
              </GraphCanvas>
              {covered ? null : <Notices />}
            </div>
            <ConsolePanel />
          </main>
          <SidePanel />
        </div>
      </div>
      <RemoteUrlDialog />
      <ToolServerDialog />
      <RemoveDialog />
      <RestartDialog />
      <StopConfirm />
      <AttachRuntimeDialog />
      <AddressDialog />
      {paletteOpen ? (
        <Suspense fallback={null}>
          <CommandPalette />
        </Suspense>
      ) : null}
      <ToolDialogs />
      <LongCommandBar />
    </GraphProvider>
  );
}

function Banners() {
  const linked = useStudio((s) => s.linked);
  const issues = useStudio((s) => s.workspace?.issues);
  const elsewhere = useStudio((s) => s.workspace?.runningElsewhere ?? 0);
  return (
    <div className="banners">
      {/* Only while the core answers: with the link down nobody knows what still runs. */}
      {elsewhere > 0 && linked ? (
        <div className="banner banner-info" role="status">
          {elsewhere === 1 ? '1 capsule keeps' : `${elsewhere} capsules keep`} running in a workspace you left; open it
          again to see or stop {elsewhere === 1 ? 'it' : 'them'}.
        </div>
      ) : null}
      <ConnectionBanner />
      {issues && issues.length > 0 ? (
        <div className="banner" role="alert">
          formation.yaml: {issues.map((i) => `${i.line ? `line ${i.line}: ` : ''}${i.message}`).join('; ')}
        </div>
      ) : null}
    </div>
  );
}

function Welcome({ connection }: { connection: string }) {
  const error = useStudio((s) => s.connectionError);
  return (
    <div className="welcome">
      {/* Before the first link, "Connecting…" below says it. */}
      {connection !== 'connecting' ? <ConnectionBanner /> : null}
      <div className="welcome-card">
        <div className="toolbar-brand">
          <span className="toolbar-logo" aria-hidden="true" />
          Capsule Studio
        </div>
        {connection === 'connecting' ? (
          <p className="muted" role="status">
            Connecting to the Studio core…
          </p>
        ) : (
          <>
            {connection === 'error' ? (
              <p className="error-text" role="alert">
                {error}
              </p>
            ) : (
              <>
                {error ? (
                  <p className="welcome-reason" role="status">
                    {error}
                  </p>
                ) : null}
                <p className="muted">Open a workspace folder, or create one to start a formation.</p>
              </>
            )}
            <Suspense fallback={null}>
              <WorkspaceForm />
            </Suspense>
          </>
        )}
      </div>
      <Notices />
    </div>
  );
}
