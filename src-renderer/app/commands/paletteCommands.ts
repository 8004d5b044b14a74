import { hasBreakpoint, useStudio } from '../../store';
import { setTheme } from '../../ui/useTheme';
import { openTool } from '../../ui/toolsState';
import { BREAKPOINT_WORDS, LAUNCH_ALL, STOP_ALL } from '../../ui/actionWords';

// The commands the palette runs, by title. Each reads the store when run, and says whether it can
// run now (a disabled command is listed, marked, and does nothing).

export interface PaletteCommand {
  id: string;
  title: string;
  /** Extra words it is found by. */
  keywords?: string;
  hint?: string;
  enabled(): boolean;
  run(): void | Promise<unknown>;
}

export interface PaletteTools {
  fitView(): void;
  autoLayout(): Promise<unknown>;
  selectAll(): void;
  /** The centre of the view, in flow coordinates, where new nodes go. */
  centre(): { x: number; y: number };
}

const isDark = () =>
  document.documentElement.dataset.theme === 'dark' ||
  (document.documentElement.dataset.theme !== 'light' && window.matchMedia?.('(prefers-color-scheme: dark)').matches);

/** The session the palette's Replay plays: the one open in the sessions browser, else the newest run of an orchestrator. */
function replayTarget(): string | null {
  const s = useStudio.getState();
  if (s.openedSession) return s.openedSession.session.id;
  const orchestrators = new Set(
    s.capsuleIds.filter((id) => s.capsules[id].role === 'orchestrator').map((id) => s.capsules[id].name),
  );
  const ended = s.sessionList.filter((x) => x.tasks > 0);
  return (ended.find((x) => x.capsule && orchestrators.has(x.capsule)) ?? ended[0])?.id ?? null;
}
async function replayLatest() {
  const s = useStudio.getState;
  if (!s().openedSession && s().sessionList.length === 0) await s().loadSessions();
  const id = replayTarget();
  if (id) await s().startReplay(id);
  else s().notify('info', 'No recorded session to replay yet: run the formation first.');
}

export function paletteCommands(tools: PaletteTools): PaletteCommand[] {
  const s = useStudio.getState;
  const running = () =>
    s().capsuleIds.some((id) => s().capsules[id].state !== 'stopped' && s().capsules[id].state !== 'failed');
  const some = () => s().capsuleIds.length > 0;
  const selectedCapsule = () => {
    const id = s().selectedId;
    return id && s().capsules[id] ? id : null;
  };
  const selectedEdge = () => s().flowEdges.find((e) => e.selected) ?? null;
  const edgeHasBreakpoint = () => {
    const e = selectedEdge();
    return !!e && hasBreakpoint(s().breakpoints, { kind: 'edge', from: e.source, to: e.target });
  };
  return [
    {
      id: 'launch-all',
      title: LAUNCH_ALL,
      keywords: 'start run formation',
      enabled: () => some() && !s().busyAll,
      run: () => s().launchAll(),
    },
    {
      id: 'stop-all',
      title: STOP_ALL,
      keywords: 'end sessions formation',
      enabled: () => running() && !s().busyAll,
      run: () => s().requestStop(),
    },
    {
      id: 'auto-layout',
      title: 'Auto-layout',
      keywords: 'arrange tidy dagre',
      enabled: () => s().flowNodes.length > 0,
      run: tools.autoLayout,
    },
    { id: 'fit-view', title: 'Fit view', keywords: 'zoom show all', enabled: () => true, run: tools.fitView },
    {
      id: 'select-all',
      title: 'Select all nodes',
      hint: 'Ctrl+A',
      enabled: () => s().flowNodes.length > 0,
      run: tools.selectAll,
    },
    {
      id: 'add-orchestrator',
      title: 'Add orchestrator',
      keywords: 'new capsule',
      enabled: () => true,
      run: () => s().addCapsuleAt('orchestrator', tools.centre()),
    },
    {
      id: 'add-worker',
      title: 'Add worker',
      keywords: 'new capsule',
      enabled: () => true,
      run: () => s().addCapsuleAt('worker', tools.centre()),
    },
    {
      id: 'add-remote',
      title: 'Add remote agent…',
      keywords: 'a2a url card',
      enabled: () => true,
      run: () => s().askRemoteUrl(tools.centre()),
    },
    {
      id: 'duplicate',
      title: 'Duplicate selected capsule',
      keywords: 'copy clone',
      enabled: () => selectedCapsule() !== null,
      run: () => s().duplicateCapsule(selectedCapsule()!),
    },
    {
      id: 'breakpoint-node',
      // The canvas menu's words for the selected capsule: set, or clear when it has one.
      title:
        selectedCapsule() && hasBreakpoint(s().breakpoints, { kind: 'turn', capsuleId: selectedCapsule()! })
          ? BREAKPOINT_WORDS.clear
          : BREAKPOINT_WORDS.turn,
      keywords: 'toggle breakpoint selected capsule debug',
      enabled: () => selectedCapsule() !== null,
      run: () => s().toggleBreakpoint({ kind: 'turn', capsuleId: selectedCapsule()! }),
    },
    {
      id: 'breakpoint-edge',
      // The connection menu's words for the selected connection.
      title: edgeHasBreakpoint() ? BREAKPOINT_WORDS.clear : BREAKPOINT_WORDS.edge,
      keywords: 'toggle breakpoint selected connection edge debug',
      enabled: () => selectedEdge() !== null,
      run: () => s().toggleBreakpoint({ kind: 'edge', from: selectedEdge()!.source, to: selectedEdge()!.target }),
    },
    {
      id: 'breakpoints-clear',
      title: 'Clear all breakpoints',
      keywords: 'pause debug',
      enabled: () => s().breakpoints.breakpoints.length > 0,
      run: () => s().clearBreakpoints(),
    },
    {
      id: 'attach-runtime',
      title: 'Attach runtime…',
      keywords: 'remote host server serve connect',
      enabled: () => true,
      run: () => s().openAttach(),
    },
    {
      id: 'sessions',
      title: 'Open sessions',
      keywords: 'traces history browser',
      enabled: () => true,
      run: () => s().showSessions('sessions'),
    },
    {
      id: 'timeline',
      title: 'Open timeline',
      keywords: 'sessions gantt',
      enabled: () => true,
      run: () => s().showSessions('timeline'),
    },
    {
      id: 'replay',
      title: 'Replay session',
      keywords: 'recording play trace run animate',
      enabled: () => !s().replayLoading,
      run: () => replayLatest(),
    },
    {
      id: 'replay-exit',
      title: 'Exit replay',
      keywords: 'live back',
      enabled: () => s().replay !== null,
      run: () => s().exitReplay(),
    },
    {
      id: 'export-kubernetes',
      title: 'Export for Kubernetes…',
      keywords: 'deploy cluster manifests kubectl kustomize',
      enabled: () => some(),
      run: () => openTool('export'),
    },
    {
      id: 'history',
      title: 'Open history and publish',
      keywords: 'versions git diff restore publish rollback draft',
      enabled: () => true,
      run: () => openTool('history'),
    },
    {
      id: 'tests',
      title: 'Open tests',
      keywords: 'regression capsule test run expectations diff',
      enabled: () => true,
      run: () => openTool('tests'),
    },
    {
      id: 'telemetry',
      title: 'OpenTelemetry settings…',
      keywords: 'otel otlp spans traces jaeger tempo export observability',
      enabled: () => true,
      run: () => openTool('telemetry'),
    },
    { id: 'undo', title: 'Undo', hint: 'Ctrl+Z', enabled: () => s().canUndo, run: () => s().undo() },
    { id: 'redo', title: 'Redo', hint: 'Shift+Ctrl+Z', enabled: () => s().canRedo, run: () => s().redo() },
    {
      id: 'theme',
      title: 'Toggle theme',
      keywords: 'dark light colour color mode',
      enabled: () => true,
      run: () => setTheme(isDark() ? 'light' : 'dark'),
    },
  ];
}
