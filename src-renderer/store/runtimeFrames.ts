import type { StudioState } from './types';

// Where each attached runtime's frame stands on the canvas, in flow coordinates: around its
// capsules and remote agents, with room for the label above them. One geometry for the frame as
// drawn, the drop that makes a capsule on that host, and the places this Studio's own nodes must
// keep clear of (a palette click, Auto-layout).

/** Room a node card takes in a frame (capsule cards are ~232 x 180). */
export const FRAME_NODE = { w: 240, h: 190 };
/** Space between the cards and the frame's edge; the top holds the label. */
export const FRAME_PAD = { x: 24, top: 48, bottom: 24 };
/** Wide enough for the label (runtime, state, host). */
export const FRAME_MIN_WIDTH = 380;

/** A rectangle of the canvas: left, top, right, bottom. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface RuntimeFrame extends Rect {
  runtime: string;
  /** How many nodes stand in it. */
  nodes: number;
}

type Nodes = Pick<StudioState, 'capsules' | 'capsuleIds' | 'remotes' | 'remoteIds'>;

/** Each runtime's frame as drawn, in the order the runtimes' nodes first appear. */
export function runtimeFrames(s: Nodes): RuntimeFrame[] {
  const boxes = new Map<string, { x0: number; y0: number; x1: number; y1: number; n: number }>();
  const add = (rt: string | undefined, p: { x: number; y: number } | undefined) => {
    if (!rt) return;
    const at = p ?? { x: 0, y: 0 };
    const b = boxes.get(rt) ?? { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, n: 0 };
    boxes.set(rt, {
      x0: Math.min(b.x0, at.x),
      y0: Math.min(b.y0, at.y),
      x1: Math.max(b.x1, at.x + FRAME_NODE.w),
      y1: Math.max(b.y1, at.y + FRAME_NODE.h),
      n: b.n + 1,
    });
  };
  for (const id of s.capsuleIds) add(s.capsules[id]?.runtime, s.capsules[id]?.position);
  for (const id of s.remoteIds) add(s.remotes[id]?.runtime, s.remotes[id]?.position);
  return [...boxes].map(([runtime, b]) => {
    const x0 = b.x0 - FRAME_PAD.x;
    return {
      runtime,
      nodes: b.n,
      x0,
      y0: b.y0 - FRAME_PAD.top,
      x1: x0 + Math.max(FRAME_MIN_WIDTH, b.x1 - b.x0 + 2 * FRAME_PAD.x),
      y1: b.y1 + FRAME_PAD.bottom,
    };
  });
}

/** The attached runtime whose frame holds a point of the canvas, if any. */
export function runtimeAt(s: Nodes, p: { x: number; y: number }): string | undefined {
  return runtimeFrames(s).find((f) => p.x >= f.x0 && p.x <= f.x1 && p.y >= f.y0 && p.y <= f.y1)?.runtime;
}

const overlaps = (a: Rect, b: Rect) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
/** Space kept between a node placed beside a frame and the frame. */
const CLEAR = 24;

/**
 * The top-left closest to `want` where a card of this size overlaps none of the rectangles (frames,
 * nodes): `want` itself when it is clear, else just above, below, left or right of one in the way.
 */
export function clearOfFrames(
  want: { x: number; y: number },
  size: { w: number; h: number },
  frames: readonly Rect[],
): { x: number; y: number } {
  const at = (p: { x: number; y: number }): Rect => ({ x0: p.x, y0: p.y, x1: p.x + size.w, y1: p.y + size.h });
  const clear = (p: { x: number; y: number }) => !frames.some((f) => overlaps(at(p), f));
  if (clear(want)) return want;
  const candidates = frames.flatMap((f) => [
    { x: want.x, y: f.y0 - size.h - CLEAR },
    { x: want.x, y: f.y1 + CLEAR },
    { x: f.x0 - size.w - CLEAR, y: want.y },
    { x: f.x1 + CLEAR, y: want.y },
  ]);
  const distance = (p: { x: number; y: number }) => Math.hypot(p.x - want.x, p.y - want.y);
  const best = candidates.filter(clear).sort((a, b) => distance(a) - distance(b))[0];
  // Frames stacked on every side: above the highest of them is always clear.
  return best ?? { x: want.x, y: Math.min(...frames.map((f) => f.y0)) - size.h - CLEAR };
}
