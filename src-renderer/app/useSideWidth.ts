import { useCallback, useEffect, useState } from 'react';
import { keepPanelSize, keptPanelSize, useStudio } from '../store';

// The side panel's width, chosen by dragging its edge (or with the arrow keys there), kept by the
// core per workspace across reloads and restarts (the web shell's page gets a new origin, hence an
// empty localStorage, on each port; localStorage only paints the first frame). Bounded so the
// canvas keeps room: SIDE_MIN at least, and at most the window less the palette and CANVAS_MIN.

const KEY = 'capsule.sidePanel.width';
export const SIDE_DEFAULT = 400;
export const SIDE_MIN = 320;
const PALETTE = 168;
const CANVAS_MIN = 320;

/** The widest the panel may be in a window this wide. */
export const sideMax = (windowWidth: number): number => Math.max(SIDE_MIN, windowWidth - PALETTE - CANVAS_MIN);

export const clampSide = (width: number, windowWidth: number): number => Math.round(Math.min(sideMax(windowWidth), Math.max(SIDE_MIN, width)));

function read(): number {
  try {
    const v = Number(localStorage.getItem(KEY));
    return Number.isFinite(v) && v > 0 ? v : SIDE_DEFAULT;
  } catch {
    return SIDE_DEFAULT;
  }
}

export function useSideWidth(): [number, (width: number, persist?: boolean) => void] {
  const [width, setWidth] = useState(read);
  // Each workspace keeps its own width (as an editor keeps its layout per folder).
  const dir = useStudio((s) => s.workspace?.dir);
  useEffect(() => {
    if (!dir) return;
    let live = true;
    void keptPanelSize('side').then((kept) => {
      if (live && kept) setWidth(kept);
    });
    return () => {
      live = false;
    };
  }, [dir]);
  const set = useCallback((w: number, persist = true) => {
    const next = clampSide(w, window.innerWidth);
    setWidth(next);
    if (persist) {
      if (dir) keepPanelSize(dir, 'side', next);
      try {
        localStorage.setItem(KEY, String(next));
      } catch {}
    }
  }, [dir]);
  return [width, set];
}
