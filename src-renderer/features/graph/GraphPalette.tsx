import { useCallback } from 'react';
import { useStudio } from '../../store';
import { Palette } from './Palette';
import type { PaletteKind } from './palette';
import { useNewNodeSpot } from './useNewNodeSpot';

/** The palette wired to the canvas: Enter/click adds the item in the middle of the view. */
export function GraphPalette() {
  const spot = useNewNodeSpot();
  const onPick = useCallback(
    (kind: PaletteKind) => {
      const s = useStudio.getState();
      // Nudge repeated adds so they do not stack exactly on top of each other.
      const position = spot((s.capsuleIds.length % 5) * 24);
      if (kind === 'remote') s.askRemoteUrl(position);
      else if (kind === 'toolServer') s.askToolServer({ position });
      else void s.addCapsuleAt(kind, position);
    },
    [spot],
  );
  return <Palette onPick={onPick} />;
}
