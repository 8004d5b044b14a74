import { useCallback, useState } from 'react';

// The minimap redraws every node it shows on each frame of a drag: with 300 nodes that doubled
// the p95 frame time (e2e/graph-perf.spec.ts). So it starts shown for formations up to
// MINIMAP_AUTO_MAX nodes and hidden above; the user's own choice (the Minimap button) is kept.

export const MINIMAP_AUTO_MAX = 150;
const KEY = 'capsule.minimap';

function stored(): boolean | null {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'on' ? true : v === 'off' ? false : null;
  } catch {
    return null;
  }
}

/** Whether the minimap shows, and the toggle. */
export function useMinimap(nodeCount: number): [boolean, () => void] {
  const [choice, setChoice] = useState<boolean | null>(stored);
  const shown = choice ?? nodeCount <= MINIMAP_AUTO_MAX;
  const toggle = useCallback(() => {
    const next = !shown;
    setChoice(next);
    try {
      localStorage.setItem(KEY, next ? 'on' : 'off');
    } catch {}
  }, [shown]);
  return [shown, toggle];
}
