import { useEffect } from 'react';

/** While a panel is laid over the window (full width, maximised), Escape gives the room back. */
export function usePanelFull(full: boolean, onFull: (full: boolean) => void): void {
  useEffect(() => {
    if (!full) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !e.defaultPrevented && onFull(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [full, onFull]);
}
