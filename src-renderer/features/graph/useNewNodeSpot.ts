import { useCallback } from 'react';
import { useReactFlow } from '@xyflow/react';
import { clearOfFrames, FRAME_NODE, runtimeFrames, useStudio, type Rect } from '../../store';

/**
 * Where a node added without a pointer (a palette click, Enter, the command palette) goes: the
 * middle of the view, in this Studio's formation. An attached runtime's frame there is kept clear
 * (a capsule goes into a runtime only when dropped in its frame): the node goes just beside it
 * and the view follows it there. `nudge` shifts repeated adds so they do not stack exactly.
 */
export function useNewNodeSpot(): (nudge?: number) => { x: number; y: number } {
  const { screenToFlowPosition, setCenter, getZoom, getNodes } = useReactFlow();
  return useCallback(
    (nudge = 0) => {
      const canvas = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
      const p = screenToFlowPosition(
        canvas ? { x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 } : { x: 400, y: 300 },
      );
      const want = { x: Math.round(p.x - FRAME_NODE.w / 2 + nudge), y: Math.round(p.y - FRAME_NODE.h / 2 + nudge) };
      // Every node as drawn (its measured size once shown), besides the frames.
      const nodes = getNodes()
        .filter((n) => !n.parentId)
        .map((n): Rect => ({
          x0: n.position.x,
          y0: n.position.y,
          x1: n.position.x + (n.measured?.width ?? FRAME_NODE.w),
          y1: n.position.y + (n.measured?.height ?? FRAME_NODE.h),
        }));
      const spot = clearOfFrames(want, FRAME_NODE, [...runtimeFrames(useStudio.getState()), ...nodes]);
      if (spot !== want)
        void setCenter(spot.x + FRAME_NODE.w / 2, spot.y + FRAME_NODE.h / 2, { zoom: getZoom(), duration: 200 });
      return spot;
    },
    [screenToFlowPosition, setCenter, getZoom, getNodes],
  );
}
