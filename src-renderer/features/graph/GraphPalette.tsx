import { useCallback } from 'react';
import { useReactFlow } from '@xyflow/react';
import { useStudio } from '../../store';
import { Palette } from './Palette';
import type { PaletteKind } from './palette';

/** The palette wired to the canvas: Enter/click adds the item in the middle of the view. */
export function GraphPalette() {
  const { screenToFlowPosition } = useReactFlow();
  const onPick = useCallback(
    (kind: PaletteKind) => {
      const canvas = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
      const centre = canvas ? { x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 } : { x: 400, y: 300 };
      const p = screenToFlowPosition(centre);
      // Nudge repeated adds so they do not stack exactly on top of each other.
      const n = useStudio.getState().capsuleIds.length % 5;
      const position = { x: Math.round(p.x - 116 + n * 24), y: Math.round(p.y - 40 + n * 24) };
      if (kind === 'remote') useStudio.getState().askRemoteUrl(position);
      else void useStudio.getState().addCapsuleAt(kind, position);
    },
    [screenToFlowPosition],
  );
  return <Palette onPick={onPick} />;
}
