import { FRAME_NODE, FRAME_PAD, invoke, useStudio, type FlowNode, type StudioState } from '../../store';
import { layoutByHost, placeUnplaced, type LayoutNode } from './autoLayout';

// The canvas's two layout actions over the store: auto-layout on demand (every node, through the
// move command, so it persists and is one undo step) and placing the nodes formation.yaml gives
// no position (persisted as well, but not an undo step: the user did nothing to undo). This file
// and dagre (the layout library) load with the first layout, not with the window (layoutActions.ts).

/** Capsule and remote nodes (external-address nodes are not persisted and follow their orchestrator). */
const persisted = (n: FlowNode) => n.type !== 'external';
const sized = (n: FlowNode): LayoutNode => ({ id: n.id, width: n.measured?.width, height: n.measured?.height });
const edgesOf = (s: StudioState) => s.edgeViews.filter((e) => e.targetKind !== 'external');

/** The host a node runs on: an attached runtime's id, or '' for this Studio. */
const hostOf = (s: StudioState, n: FlowNode) => s.capsules[n.id]?.runtime ?? s.remotes[n.id]?.runtime ?? '';

/**
 * Lays out every node with dagre, each host's apart: this Studio's nodes, then each attached
 * runtime's in its frame below them. One "move" step in the undo history.
 */
export async function autoLayoutAll(): Promise<number> {
  const s = useStudio.getState();
  const nodes = s.flowNodes.filter(persisted);
  if (nodes.length === 0) return 0;
  const origin = { x: Math.min(...nodes.map((n) => n.position.x)), y: Math.min(...nodes.map((n) => n.position.y)) };
  const hosts = ['', ...s.runtimes.map((r) => r.id)];
  for (const n of nodes) if (!hosts.includes(hostOf(s, n))) hosts.push(hostOf(s, n));
  const groups = hosts.map((host) => ({
    nodes: nodes
      .filter((n) => hostOf(s, n) === host)
      .map((n) => (host ? { ...sized(n), height: Math.max(n.measured?.height ?? 0, FRAME_NODE.h) } : sized(n))),
    ...(host ? { frame: { top: FRAME_PAD.top, bottom: FRAME_PAD.bottom } } : {}),
  }));
  const at = layoutByHost(groups, edgesOf(s), origin);
  const moves = nodes.map((n) => ({ id: n.id, from: n.position, to: at.get(n.id) ?? n.position }));
  await s.moveNodes(moves);
  return moves.length;
}

/** Gives these unplaced nodes positions from the layout and saves them. */
export async function placeUnplacedNodes(which: readonly string[]): Promise<void> {
  const s = useStudio.getState();
  const ids = new Set(which.filter((id) => s.capsules[id]?.unplaced || s.remotes[id]?.unplaced));
  if (ids.size === 0) return;
  const nodes = s.flowNodes.filter(persisted);
  const placed = nodes
    .filter((n) => !ids.has(n.id) && !s.capsules[n.id]?.unplaced && !s.remotes[n.id]?.unplaced)
    .map((n) => ({ ...sized(n), ...n.position }));
  const at = placeUnplaced(placed, nodes.filter((n) => ids.has(n.id)).map(sized), edgesOf(s));
  try {
    await Promise.all(
      [...at].map(([id, position]) =>
        s.remotes[id] ? invoke('remote.move', { id, position }) : invoke('capsule.move', { id, position }),
      ),
    );
  } catch {
    // Best effort: the nodes stay drawn where they are and a later formation change tries again.
  }
}
