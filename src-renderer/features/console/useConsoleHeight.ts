import { panelBounds, usePanelSize } from '../../ui/usePanelSize';

// The console's height (see usePanelSize), bounded so its bar, a line of the conversation and the
// composer always show, and the canvas keeps room: at most the window less the toolbar (48 px) and
// the canvas's least height (160 px).

export const CONSOLE_DEFAULT = 220;
export const CONSOLE_MIN = 150;

/** The tallest the console may be in a window this tall, and a height brought within it. */
export const { max: consoleMax, clamp: clampConsole } = panelBounds(CONSOLE_MIN, 48 + 160);

const clampToWindow = (height: number) => clampConsole(height, window.innerHeight);

export function useConsoleHeight(): [number, (height: number, persist?: boolean) => void] {
  return usePanelSize('console', CONSOLE_DEFAULT, clampToWindow);
}
