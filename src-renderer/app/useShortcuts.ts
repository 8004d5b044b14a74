import { useEffect } from 'react';
import { useStudio } from '../store';
import { togglePalette } from '../ui/paletteState';

const isTextField = (t: EventTarget | null) =>
  t instanceof HTMLElement &&
  (t.isContentEditable ||
    t.tagName === 'TEXTAREA' ||
    (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox'));

/** Undo/redo of graph edits (text fields keep their own undo); Ctrl+K / Cmd+K, from anywhere, the command palette. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 'k' && !e.shiftKey) {
        e.preventDefault();
        if (useStudio.getState().workspace) togglePalette();
        return;
      }
      if (isTextField(e.target)) return;
      if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        void useStudio.getState().undo();
      } else if ((key === 'z' && e.shiftKey) || key === 'y') {
        e.preventDefault();
        void useStudio.getState().redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
