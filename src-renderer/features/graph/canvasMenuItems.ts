import type { XYPosition } from '@xyflow/react';
import { hasBreakpoint, useStudio } from '../../store';
import type { MenuItem } from './CanvasMenu';
import { autoLayoutAll } from './layoutActions';
import { BREAKPOINT_WORDS } from '../../ui/actionWords';

// What the canvas's context menu offers, by what was right-clicked. The commands are the same
// store actions the buttons and the palette use.

/** What a context menu is about. */
export type MenuSubject =
  { kind: 'node'; id: string } | { kind: 'edge'; id: string } | { kind: 'pane'; at: XYPosition };

export interface MenuTools {
  fitView(): void;
  selectAll(): void;
  openPalette(): void;
  /** Shows the selected capsule's manifest in the side panel. */
  openManifest(id: string): void;
}

const label = (id: string) => {
  const s = useStudio.getState();
  return s.capsules[id]?.name ?? s.remotes[id]?.card?.name ?? s.remotes[id]?.url ?? s.toolServers[id]?.name ?? id;
};

function selectionIds(): string[] {
  return useStudio
    .getState()
    .flowNodes.filter((n) => n.selected && n.type !== 'external')
    .map((n) => n.id);
}

export function menuTitle(subject: MenuSubject): string {
  if (subject.kind === 'node') return `Actions for ${label(subject.id)}`;
  if (subject.kind === 'edge') return 'Actions for the connection';
  return 'Canvas actions';
}

export function menuItems(subject: MenuSubject, tools: MenuTools): MenuItem[] {
  const s = useStudio.getState();
  const layout: MenuItem = { label: 'Auto-layout', run: () => void autoLayoutAll() };
  if (subject.kind === 'edge') {
    const e = s.edgeViews.find((x) => x.id === subject.id);
    const spec = e ? ({ kind: 'edge', from: e.source, to: e.target } as const) : undefined;
    return [
      {
        label: spec && hasBreakpoint(s.breakpoints, spec) ? BREAKPOINT_WORDS.clear : BREAKPOINT_WORDS.edge,
        disabled: !spec,
        run: () => void (spec && s.toggleBreakpoint(spec)),
      },
      {
        label: 'Remove connection',
        danger: true,
        hint: 'Del',
        disabled: !e,
        run: () => void s.disconnect([subject.id]),
      },
    ];
  }
  if (subject.kind === 'pane') {
    return [
      { label: 'Add orchestrator here', run: () => void s.addCapsuleAt('orchestrator', subject.at) },
      { label: 'Add worker here', run: () => void s.addCapsuleAt('worker', subject.at) },
      { label: 'Add remote agent here…', run: () => s.askRemoteUrl(subject.at) },
      { label: 'Add tool server (MCP) here…', run: () => s.askToolServer({ position: subject.at }) },
      { ...layout, disabled: s.flowNodes.length === 0 },
      { label: 'Fit view', run: tools.fitView },
      { label: 'Select all', hint: 'Ctrl+A', run: tools.selectAll, disabled: s.flowNodes.length === 0 },
      { label: 'Command palette…', hint: 'Ctrl+K', run: tools.openPalette },
    ];
  }
  const id = subject.id;
  const selected = selectionIds();
  // A right-click on one node of a multi-selection acts on the whole selection.
  if (selected.length > 1 && selected.includes(id)) {
    return [
      { label: `Delete ${selected.length} nodes…`, danger: true, hint: 'Del', run: () => s.askRemoval(selected) },
      layout,
    ];
  }
  const c = s.capsules[id];
  if (!c && s.toolServers[id]) {
    return [
      { label: 'Edit tool server…', run: () => s.askToolServer({ id }) },
      { label: 'List its tools again', run: () => void s.loadServerTools(id) },
      { label: `Delete ${label(id)}…`, danger: true, hint: 'Del', run: () => s.askRemoval([id]) },
    ];
  }
  if (!c) {
    if (!s.remotes[id]) return [];
    return [
      { label: 'Refresh agent card', run: () => void s.refreshRemote(id) },
      { label: `Delete ${label(id)}…`, danger: true, hint: 'Del', run: () => s.askRemoval([id]) },
    ];
  }
  const running = c.state !== 'stopped' && c.state !== 'failed';
  return [
    running
      ? { label: 'Stop', run: () => void s.requestStop(id), disabled: c.state === 'stopping' }
      : { label: 'Launch', run: () => void s.launchCapsule(id), disabled: c.issues.length > 0 },
    { label: 'Duplicate', run: () => void s.duplicateCapsule(id) },
    {
      label: hasBreakpoint(s.breakpoints, { kind: 'turn', capsuleId: id })
        ? BREAKPOINT_WORDS.clear
        : BREAKPOINT_WORDS.turn,
      run: () => void s.toggleBreakpoint({ kind: 'turn', capsuleId: id }),
    },
    { label: 'Open manifest', run: () => tools.openManifest(id) },
    { label: `Delete ${c.name}…`, danger: true, hint: 'Del', run: () => s.askRemoval([id]) },
  ];
}
