import { useCallback } from 'react';
import { useReactFlow, type NodeChange } from '@xyflow/react';
import { useStudio, type FlowEdge, type FlowNode } from '../../store';
import { CARD } from './cardSize';

const PAN_MS = 250;

/** How far down the canvas's own buttons (its top panels) reach: the part of the canvas they hide. */
function hiddenAtTop(node: Element | null): number {
  const flow = node?.closest('.react-flow') ?? document.querySelector('.react-flow');
  if (!flow) return 0;
  const top = flow.getBoundingClientRect().top;
  let bottom = top;
  for (const panel of flow.querySelectorAll('.react-flow__panel.top'))
    bottom = Math.max(bottom, panel.getBoundingClientRect().bottom);
  return bottom - top;
}

const nodeElement = (id: string) =>
  document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);

/**
 * Selects one node (and only it), centres the view on it in the part of the canvas its buttons leave
 * visible, keeping the zoom unless too far out to read, and moves the keyboard focus to it.
 */
export function useFocusNode(): (id: string) => void {
  const { setCenter, getZoom } = useReactFlow<FlowNode, FlowEdge>();
  return useCallback(
    (id: string) => {
      const s = useStudio.getState();
      const node = s.flowNodes.find((n) => n.id === id);
      if (!node) return;
      const changes: NodeChange<FlowNode>[] = s.flowNodes
        .filter((n) => n.selected && n.id !== id)
        .map((n) => ({ type: 'select', id: n.id, selected: false }));
      changes.push({ type: 'select', id, selected: true });
      s.onNodesChange(changes);
      s.select(id);
      const w = node.measured?.width ?? CARD.width;
      const h = node.measured?.height ?? CARD.height;
      const zoom = Math.max(getZoom(), 0.8);
      const el = nodeElement(id);
      // Focus first: a node focused off screen pans the view to it, and the centring below comes last.
      const focus = (target: HTMLElement | null) => target?.focus({ preventScroll: true });
      if (el) focus(el);
      // A node off screen may be drawn only once the view reaches it.
      else setTimeout(() => focus(nodeElement(id)), PAN_MS + 50);
      // The view's centre sits half the hidden strip above the node: the node is centred below the buttons.
      const shift = hiddenAtTop(el) / 2 / zoom;
      void setCenter(node.position.x + w / 2, node.position.y + h / 2 - shift, { zoom, duration: PAN_MS });
    },
    [setCenter, getZoom],
  );
}
