import type { StudioState } from '../../store';

// The canvas's layout actions (layoutRun.ts) and dagre load with the first layout, not with the
// window: these stand-ins load them and call through.
const run = () => import('./layoutRun');

/** Lays out every node, each host's apart, as one undo step; answers how many nodes moved. */
export const autoLayoutAll = async (): Promise<number> => (await run()).autoLayoutAll();

/** Gives these unplaced nodes positions from the layout and saves them. */
export const placeUnplacedNodes = async (which: readonly string[]): Promise<void> =>
  (await run()).placeUnplacedNodes(which);

/** Ids of the nodes formation.yaml gives no position, as one comparable string. */
export const unplacedKey = (s: StudioState): string =>
  [
    ...s.capsuleIds.filter((id) => s.capsules[id]?.unplaced),
    ...s.remoteIds.filter((id) => s.remotes[id]?.unplaced),
  ].join('\n');
