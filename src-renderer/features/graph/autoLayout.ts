import { Graph, layout } from '@dagrejs/dagre';
import { CARD } from './cardSize';

// Auto-layout with dagre: orchestrators to the left of the workers they delegate to (edges run
// left to right, as the handles do). Pure and deterministic: the same nodes and edges, in any
// order, give the same positions.

export interface LayoutNode {
  id: string;
  /** Measured size when known; a capsule card otherwise. */
  width?: number;
  height?: number;
}
export interface LayoutEdge {
  source: string;
  target: string;
}
export interface Point {
  x: number;
  y: number;
}

export { CARD };
const GAP = { nodes: 40, ranks: 120 };
/** Above this, dagre takes over a second (0.85 s for 1,000 nodes here, 2 s for 2,000): the rest go in a grid. */
export const LAYOUT_MAX_NODES = 1000;

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Top-left positions for every node, the whole layout's top-left corner at `origin`. */
export function layoutFormation(
  nodes: readonly LayoutNode[],
  edges: readonly LayoutEdge[],
  origin: Point = { x: 0, y: 0 },
): Map<string, Point> {
  const sorted = [...nodes].sort(byId);
  const out = new Map<string, Point>();
  if (sorted.length === 0) return out;
  if (sorted.length > LAYOUT_MAX_NODES) return gridLayout(sorted, origin);
  const g = new Graph({ multigraph: false });
  g.setGraph({ rankdir: 'LR', nodesep: GAP.nodes, ranksep: GAP.ranks, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of sorted) g.setNode(n.id, { width: n.width ?? CARD.width, height: n.height ?? CARD.height });
  const ids = new Set(sorted.map((n) => n.id));
  const seen = new Set<string>();
  for (const e of [...edges].sort((a, b) =>
    byId({ id: `${a.source}\0${a.target}` }, { id: `${b.source}\0${b.target}` }),
  )) {
    const key = `${e.source}\0${e.target}`;
    if (e.source === e.target || !ids.has(e.source) || !ids.has(e.target) || seen.has(key)) continue;
    seen.add(key);
    g.setEdge(e.source, e.target);
  }
  layout(g);
  let minX = Infinity;
  let minY = Infinity;
  const centres = sorted.map((n) => {
    const p = g.node(n.id) as { x: number; y: number; width: number; height: number };
    const tl = { x: p.x - p.width / 2, y: p.y - p.height / 2 };
    minX = Math.min(minX, tl.x);
    minY = Math.min(minY, tl.y);
    return [n.id, tl] as const;
  });
  for (const [id, tl] of centres)
    out.set(id, { x: Math.round(tl.x - minX + origin.x), y: Math.round(tl.y - minY + origin.y) });
  return out;
}

function gridLayout(nodes: readonly LayoutNode[], origin: Point): Map<string, Point> {
  const cols = Math.ceil(Math.sqrt(nodes.length));
  const out = new Map<string, Point>();
  nodes.forEach((n, i) =>
    out.set(n.id, {
      x: origin.x + (i % cols) * (CARD.width + GAP.nodes),
      y: origin.y + Math.floor(i / cols) * (CARD.height + GAP.nodes),
    }),
  );
  return out;
}

/**
 * Places only the nodes formation.yaml gives no position: laid out among themselves, below the
 * nodes that have one (so nothing placed by the user moves), or from the origin when none has.
 */
export function placeUnplaced(
  placed: readonly (LayoutNode & Point)[],
  unplaced: readonly LayoutNode[],
  edges: readonly LayoutEdge[],
): Map<string, Point> {
  if (placed.length === 0) return layoutFormation(unplaced, edges, { x: 80, y: 80 });
  const left = Math.min(...placed.map((n) => n.x));
  const bottom = Math.max(...placed.map((n) => n.y + (n.height ?? CARD.height)));
  return layoutFormation(unplaced, edges, { x: left, y: bottom + GAP.ranks / 2 });
}

/** One host's nodes in a layout by host; `frame` is the room its frame takes above and below them (none for this Studio's own). */
export interface HostGroup {
  nodes: readonly LayoutNode[];
  frame?: { top: number; bottom: number };
}

/**
 * Lays out each host's nodes as a block of its own, one under the other from `origin`: this
 * Studio's formation first, then each attached runtime's in its frame. The blocks never overlap,
 * so no local node lands in (or under) a runtime's frame; edges between hosts do not pull them together.
 */
export function layoutByHost(
  groups: readonly HostGroup[],
  edges: readonly LayoutEdge[],
  origin: Point,
): Map<string, Point> {
  const out = new Map<string, Point>();
  let top = origin.y;
  for (const g of groups) {
    if (g.nodes.length === 0) continue;
    const at = layoutFormation(g.nodes, edges, { x: origin.x, y: top + (g.frame?.top ?? 0) });
    let bottom = top;
    for (const n of g.nodes) {
      const p = at.get(n.id)!;
      out.set(n.id, p);
      bottom = Math.max(bottom, p.y + (n.height ?? CARD.height));
    }
    top = bottom + (g.frame?.bottom ?? 0) + GAP.ranks / 2;
  }
  return out;
}
