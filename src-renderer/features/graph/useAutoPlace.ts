import { useEffect, useRef } from 'react';
import { useReactFlow } from '@xyflow/react';
import { useStudio, type FlowEdge, type FlowNode } from '../../store';
import { FIT_VIEW_ANIMATED } from './fitView';
import { placeUnplacedNodes, unplacedKey } from './layoutActions';

/**
 * Nodes formation.yaml gives no position would all stand at 0,0: once the canvas has them, they
 * are laid out together and the positions saved; when the saved formation comes back, the view
 * fits it. A node is placed once: the formations that arrive while the saves land (some nodes
 * placed, some not yet) start no second layout, and a failed save does not loop.
 */
export function useAutoPlace(): void {
  const key = useStudio(unplacedKey);
  const tried = useRef(new Set<string>());
  const placing = useRef(false);
  const { fitView } = useReactFlow<FlowNode, FlowEdge>();
  useEffect(() => {
    if (!key) {
      if (!placing.current) return;
      placing.current = false;
      const frame = requestAnimationFrame(() => void fitView(FIT_VIEW_ANIMATED));
      return () => cancelAnimationFrame(frame);
    }
    const ids = key.split('\n');
    if (ids.every((id) => tried.current.has(id))) return;
    // After a frame, so the nodes are measured and the layout knows their real sizes.
    const frame = requestAnimationFrame(() => {
      for (const id of ids) tried.current.add(id);
      placing.current = true;
      void placeUnplacedNodes(ids);
    });
    return () => cancelAnimationFrame(frame);
  }, [key, fitView]);
}
