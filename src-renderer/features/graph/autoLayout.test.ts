import { describe, expect, it } from 'vitest';
import {
  CARD,
  LAYOUT_MAX_NODES,
  layoutByHost,
  layoutFormation,
  placeUnplaced,
  type LayoutNode,
  type Point,
} from './autoLayout';

const box = (p: Point, n: LayoutNode) => ({ x: p.x, y: p.y, w: n.width ?? CARD.width, h: n.height ?? CARD.height });
function overlapping(nodes: LayoutNode[], at: Map<string, Point>): string[] {
  const bad: string[] = [];
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      const a = box(at.get(nodes[i].id)!, nodes[i]);
      const b = box(at.get(nodes[j].id)!, nodes[j]);
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
        bad.push(`${nodes[i].id}/${nodes[j].id}`);
    }
  }
  return bad;
}

const star = (workers: number) => {
  const nodes: LayoutNode[] = [{ id: 'lead' }, ...Array.from({ length: workers }, (_, i) => ({ id: `w${i}` }))];
  return { nodes, edges: nodes.slice(1).map((n) => ({ source: 'lead', target: n.id })) };
};

describe('layoutFormation', () => {
  it('puts an orchestrator left of its workers, with no two nodes overlapping', () => {
    const { nodes, edges } = star(6);
    const at = layoutFormation(nodes, edges);
    expect(at.size).toBe(7);
    for (const n of nodes.slice(1)) expect(at.get(n.id)!.x).toBeGreaterThanOrEqual(at.get('lead')!.x + CARD.width);
    expect(overlapping(nodes, at)).toEqual([]);
    expect(Math.min(...[...at.values()].map((p) => p.x))).toBe(0);
    expect(Math.min(...[...at.values()].map((p) => p.y))).toBe(0);
  });

  it('is deterministic: the same graph in another order gives the same positions', () => {
    const { nodes, edges } = star(5);
    nodes.push({ id: 'lone', width: 300, height: 90 });
    const a = layoutFormation(nodes, edges);
    const b = layoutFormation([...nodes].reverse(), [...edges].reverse());
    expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
    expect(overlapping(nodes, a)).toEqual([]);
  });

  it('ignores edges to unknown nodes, loops and repeats; lays out 300 nodes without overlaps', () => {
    const nodes: LayoutNode[] = Array.from({ length: 300 }, (_, i) => ({ id: `n${i}` }));
    const edges = nodes.slice(10).map((n, i) => ({ source: `n${i % 10}`, target: n.id }));
    edges.push({ source: 'n0', target: 'ghost' }, { source: 'n1', target: 'n1' }, { source: 'n0', target: 'n10' });
    const at = layoutFormation(nodes, edges, { x: 50, y: 60 });
    expect(at.size).toBe(300);
    expect(overlapping(nodes, at)).toEqual([]);
    expect(Math.min(...[...at.values()].map((p) => p.x))).toBe(50);
  });

  it('above the bound, lays nodes out in a grid, still without overlaps', () => {
    const nodes: LayoutNode[] = Array.from({ length: LAYOUT_MAX_NODES + 1 }, (_, i) => ({
      id: `n${String(i).padStart(4, '0')}`,
    }));
    const at = layoutFormation(nodes, [{ source: 'n0000', target: 'n0001' }]);
    // A square grid in id order (dagre would put n0001 in the rank after n0000).
    expect(at.get('n0000')).toEqual({ x: 0, y: 0 });
    expect(at.get('n0001')!.y).toBe(0);
    expect(at.size).toBe(nodes.length);
    const cells = new Set([...at.values()].map((p) => `${p.x},${p.y}`));
    expect(cells.size).toBe(nodes.length);
    const xs = [...new Set([...at.values()].map((p) => p.x))].sort((a, b) => a - b);
    expect(xs[1] - xs[0]).toBeGreaterThanOrEqual(CARD.width);
  });
});

describe('placeUnplaced', () => {
  it('keeps placed nodes and puts the rest below them, overlapping none', () => {
    const placed = [
      { id: 'a', x: 100, y: 40 },
      { id: 'b', x: 500, y: 300 },
    ];
    const unplaced = [{ id: 'c' }, { id: 'd' }];
    const at = placeUnplaced(placed, unplaced, [{ source: 'c', target: 'd' }]);
    expect([...at.keys()].sort()).toEqual(['c', 'd']);
    const all = [...placed, ...unplaced];
    const positions = new Map<string, Point>([...placed.map((p) => [p.id, p] as const), ...at]);
    expect(overlapping(all, positions)).toEqual([]);
    expect(at.get('c')!.x).toBe(100);
    expect(at.get('d')!.x).toBeGreaterThan(at.get('c')!.x);
  });

  it('lays out from a margin when nothing is placed', () => {
    const at = placeUnplaced([], [{ id: 'x' }], []);
    expect(at.get('x')).toEqual({ x: 80, y: 80 });
  });
});

describe('layoutByHost', () => {
  it("lays out each host's nodes as its own block, a runtime's frame below this Studio's nodes and clear of them", () => {
    const local = star(3);
    const far: LayoutNode[] = [
      { id: '@far/a', height: 190 },
      { id: '@far/b', height: 190 },
    ];
    const frame = { top: 48, bottom: 24 };
    // An edge across hosts does not pull the blocks together.
    const edges = [...local.edges, { source: 'lead', target: '@far/a' }, { source: '@far/a', target: '@far/b' }];
    const at = layoutByHost([{ nodes: local.nodes }, { nodes: far, frame }], edges, { x: 10, y: 20 });
    expect(at.size).toBe(6);
    const localBottom = Math.max(...local.nodes.map((n) => at.get(n.id)!.y + CARD.height));
    const frameTop = Math.min(...far.map((n) => at.get(n.id)!.y)) - frame.top;
    expect(frameTop).toBeGreaterThan(localBottom);
    expect(Math.min(...local.nodes.map((n) => at.get(n.id)!.y))).toBe(20);
    expect(overlapping([...local.nodes, ...far], at)).toEqual([]);
    // The runtime's own edge still lays it out left to right.
    expect(at.get('@far/b')!.x).toBeGreaterThan(at.get('@far/a')!.x);
  });

  it('skips a host with no nodes', () => {
    const at = layoutByHost([{ nodes: [] }, { nodes: [{ id: 'x' }], frame: { top: 48, bottom: 24 } }], [], {
      x: 0,
      y: 0,
    });
    expect(at.get('x')).toEqual({ x: 0, y: 48 });
  });
});
