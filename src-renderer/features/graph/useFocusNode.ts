import { useCallback } from 'react';
import { useReactFlow, type NodeChange } from '@xyflow/react';
import { useStudio, type FlowEdge, type FlowNode } from '../../store';
import { CARD } from './cardSize';

/** Selects one node (and only it) and centres the view on it, keeping the zoom unless too far out to read. */
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
      void setCenter(node.position.x + w / 2, node.position.y + h / 2, {
        zoom: Math.max(getZoom(), 0.8),
        duration: 250,
      });
    },
    [setCenter, getZoom],
  );
}
