import { usePanelSize } from './usePanelSize';

// The side panel's width (see usePanelSize), bounded so the canvas keeps room: SIDE_MIN at least,
// and at most the window less the palette and CANVAS_MIN.

export const SIDE_DEFAULT = 400;
export const SIDE_MIN = 320;
const PALETTE = 168;
const CANVAS_MIN = 320;

/** The widest the panel may be in a window this wide. */
export const sideMax = (windowWidth: number): number => Math.max(SIDE_MIN, windowWidth - PALETTE - CANVAS_MIN);

export const clampSide = (width: number, windowWidth: number): number => Math.round(Math.min(sideMax(windowWidth), Math.max(SIDE_MIN, width)));

const clampToWindow = (width: number) => clampSide(width, window.innerWidth);

export function useSideWidth(): [number, (width: number, persist?: boolean) => void] {
  return usePanelSize('side', SIDE_DEFAULT, clampToWindow);
}
