import { describe, expect, it } from 'vitest';
import { clearOfFrames, FRAME_MIN_WIDTH, FRAME_NODE, FRAME_PAD, runtimeAt, runtimeFrames } from './runtimeFrames';
import type { StudioState } from './types';

const nodes = (list: { id: string; runtime?: string; x: number; y: number }[]) =>
  ({
    capsuleIds: list.map((n) => n.id),
    capsules: Object.fromEntries(
      list.map((n) => [n.id, { id: n.id, runtime: n.runtime, position: { x: n.x, y: n.y } }]),
    ),
    remoteIds: [],
    remotes: {},
  }) as unknown as Pick<StudioState, 'capsules' | 'capsuleIds' | 'remotes' | 'remoteIds'>;

describe('runtimeFrames', () => {
  it("frames each runtime's nodes with room for the label, at least as wide as the label needs; local nodes have none", () => {
    const s = nodes([
      { id: 'local', x: 0, y: 0 },
      { id: '@far/a', runtime: 'far', x: 100, y: 500 },
      { id: '@far/b', runtime: 'far', x: 100, y: 800 },
    ]);
    expect(runtimeFrames(s)).toEqual([
      {
        runtime: 'far',
        nodes: 2,
        x0: 100 - FRAME_PAD.x,
        y0: 500 - FRAME_PAD.top,
        x1: 100 - FRAME_PAD.x + FRAME_MIN_WIDTH,
        y1: 800 + FRAME_NODE.h + FRAME_PAD.bottom,
      },
    ]);
    expect(runtimeAt(s, { x: 110, y: 470 })).toBe('far');
    expect(runtimeAt(s, { x: 110, y: 300 })).toBeUndefined();
  });
});

describe('clearOfFrames', () => {
  const frame = { x0: 0, y0: 400, x1: 400, y1: 700 };
  it('keeps a spot that overlaps no frame', () => {
    const want = { x: 0, y: 0 };
    expect(clearOfFrames(want, FRAME_NODE, [frame])).toBe(want);
  });

  it('moves a card that would overlap a frame to the nearest side of it, clear of every frame', () => {
    const spot = clearOfFrames({ x: 100, y: 420 }, FRAME_NODE, [frame]);
    expect(spot).toEqual({ x: 100, y: 400 - FRAME_NODE.h - 24 });
    // A second frame right above it: the card goes to another side.
    const above = { x0: 0, y0: 0, x1: 400, y1: 390 };
    const next = clearOfFrames({ x: 100, y: 420 }, FRAME_NODE, [frame, above]);
    const hits = (r: typeof frame) =>
      next.x < r.x1 && r.x0 < next.x + FRAME_NODE.w && next.y < r.y1 && r.y0 < next.y + FRAME_NODE.h;
    expect(hits(frame) || hits(above)).toBe(false);
  });
});
