import type { ReactFlowState } from '@xyflow/react';

// The minimap floats over the canvas: where it stands, it hides what is under it (a node's Stop
// button). So it takes the first corner of the canvas where no node is drawn under it, bottom
// right first, then top left (the tool buttons hold the top right, the zoom controls the bottom
// left). With nodes under both, it stays bottom right, drawn faint and letting clicks through
// (`under`), so the node under it can still be read and used.

export type MinimapCorner = 'bottom-right' | 'top-left' | 'under';

/** The minimap's size and its margin from the canvas edge (xyflow's panel margin). */
export const MINIMAP_SIZE = { width: 168, height: 112 };
const MARGIN = 15;

type Rect = { x0: number; y0: number; x1: number; y1: number };

/** Where the minimap goes for this view (a store selector: it answers a word, so a pan re-renders nothing unless the word changes). */
export function minimapCorner(s: Pick<ReactFlowState, 'width' | 'height' | 'transform' | 'nodeLookup'>): MinimapCorner {
  const corners: [MinimapCorner, Rect][] = [
    [
      'bottom-right',
      {
        x0: s.width - MARGIN - MINIMAP_SIZE.width,
        y0: s.height - MARGIN - MINIMAP_SIZE.height,
        x1: s.width - MARGIN,
        y1: s.height - MARGIN,
      },
    ],
    ['top-left', { x0: MARGIN, y0: MARGIN, x1: MARGIN + MINIMAP_SIZE.width, y1: MARGIN + MINIMAP_SIZE.height }],
  ];
  const [tx, ty, zoom] = s.transform;
  const busy = corners.map(() => false);
  for (const n of s.nodeLookup.values()) {
    if (n.hidden) continue;
    const p = n.internals.positionAbsolute;
    const r = {
      x0: p.x * zoom + tx,
      y0: p.y * zoom + ty,
      x1: (p.x + (n.measured.width ?? 0)) * zoom + tx,
      y1: (p.y + (n.measured.height ?? 0)) * zoom + ty,
    };
    corners.forEach(([, c], i) => {
      if (r.x0 < c.x1 && c.x0 < r.x1 && r.y0 < c.y1 && c.y0 < r.y1) busy[i] = true;
    });
    if (busy.every(Boolean)) return 'under';
  }
  return corners[busy.indexOf(false)]?.[0] ?? 'under';
}
