import { useCallback, useEffect, useState } from 'react';
import { keepPanelSize, keptPanelSize, useStudio } from '../store';
import type { PanelName } from '../../src-shared/contract';

// A panel's size (the side panel's width, the console's height), chosen by dragging its edge or
// with the arrow keys there, kept by the core per workspace across reloads and restarts (the web
// shell's page gets a new origin, hence an empty localStorage, on each port; localStorage only
// paints the first frame). The caller bounds it to the window it is shown in.

function read(key: string, fallback: number): number {
  try {
    const v = Number(localStorage.getItem(key));
    return Number.isFinite(v) && v > 0 ? v : fallback;
  } catch {
    return fallback;
  }
}

/**
 * A panel's bounds in a window: at least `min`, and at most the window's size (along the panel's
 * axis) less `reserved` (what the rest of the window keeps).
 */
export function panelBounds(min: number, reserved: number) {
  const max = (windowSize: number): number => Math.max(min, windowSize - reserved);
  const clamp = (size: number, windowSize: number): number =>
    Math.round(Math.min(max(windowSize), Math.max(min, size)));
  return { max, clamp };
}

/** The panel's size and its setter (`persist` false while a drag is under way: the drop keeps it). */
export function usePanelSize(
  name: PanelName,
  fallback: number,
  clamp: (size: number) => number,
): [number, (size: number, persist?: boolean) => void] {
  const key = `capsule.${name}.size`;
  const [size, setSize] = useState(() => read(key, fallback));
  // Each workspace keeps its own layout (as an editor keeps its own per folder).
  const dir = useStudio((s) => s.workspace?.dir);
  useEffect(() => {
    if (!dir) return;
    let live = true;
    void keptPanelSize(name).then((kept) => {
      if (live && kept) setSize(kept);
    });
    return () => {
      live = false;
    };
  }, [dir, name]);
  const set = useCallback(
    (s: number, persist = true) => {
      const next = clamp(s);
      setSize(next);
      if (!persist) return;
      // Kept for the workspace open now (a write that lands after another opened is refused).
      if (dir) keepPanelSize(dir, name, next);
      try {
        localStorage.setItem(key, String(next));
      } catch {}
    },
    [clamp, key, name, dir],
  );
  return [size, set];
}

/** The window's inner size, kept up to date. */
export function useWindowSize(): { width: number; height: number } {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    const onResize = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}
