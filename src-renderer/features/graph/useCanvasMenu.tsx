import {
  lazy,
  Suspense,
  useCallback,
  useState,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from 'react';
import { useReactFlow, type Edge, type Node, type XYPosition } from '@xyflow/react';
import { useStudio, type FlowEdge, type FlowNode } from '../../store';
import { openPalette } from '../../ui/paletteState';
import { FIT_VIEW_ANIMATED } from './fitView';
import type { MenuSubject } from './canvasMenuItems';
import { useSelectAll } from './useSelectAll';

const isTyping = (t: EventTarget) =>
  t instanceof HTMLElement &&
  (t.isContentEditable || t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
/** Where a node added from the menu goes: its card centred on the point. */
const cardAt = (p: XYPosition) => ({ x: Math.round(p.x - 116), y: Math.round(p.y - 40) });

// The menu's items and element load on the first right-click: the first screen does without them.
const SubjectMenu = lazy(() => import('./SubjectMenu').then((m) => ({ default: m.SubjectMenu })));

type Anchor = { preventDefault(): void; clientX: number; clientY: number };

/**
 * The canvas's context menu: xyflow's right-click handlers for nodes, the selection, edges and the
 * pane, a key handler for the keyboard's way in (Menu key or Shift+F10 on a focused node or edge,
 * else the canvas; Ctrl+A selects all), and the menu element to render.
 */
export function useCanvasMenu() {
  const { screenToFlowPosition, fitView } = useReactFlow<FlowNode, FlowEdge>();
  const selectAll = useSelectAll();
  const [menu, setMenu] = useState<{ x: number; y: number; subject: MenuSubject } | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const open = useCallback((e: Anchor, subject: MenuSubject) => {
    e.preventDefault();
    setMenu({ x: e.clientX, y: e.clientY, subject });
  }, []);
  const onNodeContextMenu = useCallback((e: ReactMouseEvent, n: Node) => open(e, { kind: 'node', id: n.id }), [open]);
  const onSelectionContextMenu = useCallback(
    (e: ReactMouseEvent, ns: Node[]) => ns[0] && open(e, { kind: 'node', id: ns[0].id }),
    [open],
  );
  const onEdgeContextMenu = useCallback(
    (e: ReactMouseEvent, edge: Edge) => open(e, { kind: 'edge', id: edge.id }),
    [open],
  );
  const onPaneContextMenu = useCallback(
    (e: ReactMouseEvent | MouseEvent) =>
      open(e, { kind: 'pane', at: cardAt(screenToFlowPosition({ x: e.clientX, y: e.clientY })) }),
    [open, screenToFlowPosition],
  );
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'a' && !isTyping(e.target)) {
        e.preventDefault();
        selectAll();
        return;
      }
      if (!(e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey))) return;
      const target = e.target as HTMLElement;
      const node = target.closest<HTMLElement>('.react-flow__node');
      const edge = target.closest<HTMLElement>('.react-flow__edge');
      const box = (node ?? edge ?? e.currentTarget).getBoundingClientRect();
      const at = {
        preventDefault: () => e.preventDefault(),
        clientX: box.left + Math.min(box.width / 2, 40),
        clientY: box.top + Math.min(box.height / 2, 40),
      };
      if (node?.dataset.id) open(at, { kind: 'node', id: node.dataset.id });
      else if (edge?.dataset.id) open(at, { kind: 'edge', id: edge.dataset.id });
      else open(at, { kind: 'pane', at: cardAt(screenToFlowPosition({ x: at.clientX, y: at.clientY })) });
    },
    [open, screenToFlowPosition, selectAll],
  );

  let element: ReactNode = null;
  if (menu) {
    const tools = {
      fitView: () => void fitView(FIT_VIEW_ANIMATED),
      selectAll,
      openPalette,
      openManifest: (id: string) => {
        useStudio.getState().select(id);
        // The side panel shows the selected capsule; its Manifest tab is the one to bring up.
        requestAnimationFrame(() => document.getElementById('tab-manifest')?.click());
      },
    };
    element = (
      <Suspense fallback={null}>
        <SubjectMenu x={menu.x} y={menu.y} subject={menu.subject} tools={tools} onClose={closeMenu} />
      </Suspense>
    );
  }
  return {
    handlers: { onNodeContextMenu, onSelectionContextMenu, onEdgeContextMenu, onPaneContextMenu },
    onKeyDown,
    element,
  };
}
