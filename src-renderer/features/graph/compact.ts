import { createContext } from 'react';

/** Below this zoom the text is unreadable anyway: nodes draw as a name and a state colour. */
export const COMPACT_BELOW_ZOOM = 0.45;

export const isCompact = (s: { transform: [number, number, number] }): boolean => s.transform[2] < COMPACT_BELOW_ZOOM;

/**
 * Whether nodes draw compact. The canvas reads the zoom once and hands the answer down, so 300
 * nodes do not each run a selector on every pan and drag frame; only a threshold crossing
 * re-renders them.
 */
export const CompactContext = createContext(false);
