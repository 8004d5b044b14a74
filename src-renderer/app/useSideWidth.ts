import { panelBounds, usePanelSize } from '../ui/usePanelSize';

// The side panel's width (see usePanelSize), bounded so the canvas keeps room: SIDE_MIN at least,
// and at most the window less the palette (168 px) and the canvas's least width (320 px).

export const SIDE_DEFAULT = 400;
export const SIDE_MIN = 320;

/** The widest the panel may be in a window this wide, and a width brought within it. */
export const { max: sideMax, clamp: clampSide } = panelBounds(SIDE_MIN, 168 + 320);

const clampToWindow = (width: number) => clampSide(width, window.innerWidth);

export function useSideWidth(): [number, (width: number, persist?: boolean) => void] {
  return usePanelSize('side', SIDE_DEFAULT, clampToWindow);
}
