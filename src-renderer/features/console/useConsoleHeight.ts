import { usePanelSize } from '../../app/usePanelSize';

// The console's height (see usePanelSize), bounded so its bar, a line of the conversation and the
// composer always show, and the canvas above keeps room: at most the window less the toolbar and
// CANVAS_MIN.

export const CONSOLE_DEFAULT = 220;
export const CONSOLE_MIN = 150;
const TOOLBAR = 48;
const CANVAS_MIN = 160;

/** The tallest the console may be in a window this tall. */
export const consoleMax = (windowHeight: number): number => Math.max(CONSOLE_MIN, windowHeight - TOOLBAR - CANVAS_MIN);

export const clampConsole = (height: number, windowHeight: number): number => Math.round(Math.min(consoleMax(windowHeight), Math.max(CONSOLE_MIN, height)));

const clampToWindow = (height: number) => clampConsole(height, window.innerHeight);

export function useConsoleHeight(): [number, (height: number, persist?: boolean) => void] {
  return usePanelSize('console', CONSOLE_DEFAULT, clampToWindow);
}
