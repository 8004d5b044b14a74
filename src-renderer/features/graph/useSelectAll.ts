import { useCallback } from 'react';
import type { NodeChange } from '@xyflow/react';
import { useStudio, type FlowNode } from '../../store';

/** Selects every capsule and remote node (external-address nodes cannot be moved or removed). */
export function useSelectAll(): () => void {
  return useCallback(() => {
    const s = useStudio.getState();
    const changes: NodeChange<FlowNode>[] = s.flowNodes.map((n) => ({
      type: 'select',
      id: n.id,
      selected: n.type !== 'external',
    }));
    s.onNodesChange(changes);
  }, []);
}
