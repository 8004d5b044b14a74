import { useEffect } from 'react';
import { createUiState } from './uiState';

// How many panels lie over the canvas right now (the details panel at full width, the console
// maximised): while one does, notices stand in a strip under the toolbar instead of over the canvas,
// where they would cover that panel's content.
const covering = createUiState(0);

/** Whether a panel is laid over the canvas at the moment. */
export const useCanvasCovered = (): boolean => covering.use() > 0;

/** While a panel is laid over the window (full width, maximised), Escape gives the room back. */
export function usePanelFull(full: boolean, onFull: (full: boolean) => void): void {
  useEffect(() => {
    if (!full) return;
    covering.set(covering.get() + 1);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !e.defaultPrevented && onFull(false);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      covering.set(covering.get() - 1);
    };
  }, [full, onFull]);
}
