import { useStudio } from '../../store';
import { setTheme } from '../../app/useTheme';

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
  document.documentElement.dataset.theme === 'dark' || (document.documentElement.dataset.theme !== 'light' && window.matchMedia?.('(prefers-color-scheme: dark)').matches);

export function paletteCommands(tools: PaletteTools): PaletteCommand[] {
  const s = useStudio.getState;
  const running = () => s().capsuleIds.some((id) => s().capsules[id].state !== 'stopped' && s().capsules[id].state !== 'failed');
  const some = () => s().capsuleIds.length > 0;
  const selectedCapsule = () => {
    const id = s().selectedId;
    return id && s().capsules[id] ? id : null;
  };
  return [
    { id: 'launch-all', title: 'Launch formation', keywords: 'start run all', enabled: () => some() && !s().busyAll, run: () => s().launchAll() },
    { id: 'stop-all', title: 'Stop all', keywords: 'end sessions formation', enabled: () => running() && !s().busyAll, run: () => s().stopAll() },
    { id: 'auto-layout', title: 'Auto-layout', keywords: 'arrange tidy dagre', enabled: () => s().flowNodes.length > 0, run: tools.autoLayout },
    { id: 'fit-view', title: 'Fit view', keywords: 'zoom show all', enabled: () => true, run: tools.fitView },
    { id: 'select-all', title: 'Select all nodes', hint: 'Ctrl+A', enabled: () => s().flowNodes.length > 0, run: tools.selectAll },
    { id: 'add-orchestrator', title: 'Add orchestrator', keywords: 'new capsule', enabled: () => true, run: () => s().addCapsuleAt('orchestrator', tools.centre()) },
    { id: 'add-worker', title: 'Add worker', keywords: 'new capsule', enabled: () => true, run: () => s().addCapsuleAt('worker', tools.centre()) },
    { id: 'add-remote', title: 'Add remote agent…', keywords: 'a2a url card', enabled: () => true, run: () => s().askRemoteUrl(tools.centre()) },
    { id: 'duplicate', title: 'Duplicate selected capsule', keywords: 'copy clone', enabled: () => selectedCapsule() !== null, run: () => s().duplicateCapsule(selectedCapsule()!) },
    { id: 'attach-runtime', title: 'Attach runtime…', keywords: 'remote host server serve connect', enabled: () => true, run: () => s().openAttach() },
    { id: 'sessions', title: 'Open sessions', keywords: 'traces history browser', enabled: () => true, run: () => s().showSessions('sessions') },
    { id: 'timeline', title: 'Open timeline', keywords: 'sessions gantt', enabled: () => true, run: () => s().showSessions('timeline') },
    { id: 'undo', title: 'Undo', hint: 'Ctrl+Z', enabled: () => s().canUndo, run: () => s().undo() },
    { id: 'redo', title: 'Redo', hint: 'Shift+Ctrl+Z', enabled: () => s().canRedo, run: () => s().redo() },
    { id: 'theme', title: 'Toggle theme', keywords: 'dark light colour color mode', enabled: () => true, run: () => setTheme(isDark() ? 'light' : 'dark') },
  ];
}
