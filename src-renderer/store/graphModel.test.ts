import { describe, expect, it } from 'vitest';
import type { CapsuleView, EdgeView } from '../../src-shared/contract';
import { deriveFlow, freeSpot } from './graphModel';

// External-address nodes (allow entries that match nothing) are placed where no node is.

const capsule = (id: string, x: number, y: number): CapsuleView =>
  ({
    id,
    name: id,
    position: { x, y },
    state: 'stopped',
    issues: [],
    allow: [],
    acceptsPeerTasks: false,
    queued: 0,
    tasks: 0,
  }) as unknown as CapsuleView;

describe('external-address nodes', () => {
  it('never cover a capsule node', () => {
    // The worker sits exactly where an external node of the orchestrator would go by default.
    const capsules = { orch: capsule('orch', 0, 200), worker: capsule('worker', 320, 50) };
    const edgeViews: EdgeView[] = [
      {
        id: 'orch->external:localhost:1',
        source: 'orch',
        target: 'external:localhost:1',
        targetKind: 'external',
        address: 'localhost:1',
      },
    ];
    const { flowNodes } = deriveFlow({
      capsules,
      capsuleIds: ['orch', 'worker'],
      remotes: {},
      remoteIds: [],
      edgeViews,
      flowNodes: [],
      flowEdges: [],
    });
    const ext = flowNodes.find((n) => n.type === 'external')!;
    const w = capsules.worker.position;
    const apart =
      ext.position.y >= w.y + 180 ||
      ext.position.y + 90 <= w.y ||
      ext.position.x >= w.x + 232 ||
      ext.position.x + 232 <= w.x;
    expect(apart).toBe(true);
  });

  it('keeps the wanted spot when it is free', () => {
    expect(freeSpot({ x: 10, y: 10 }, [{ x: 1000, y: 1000, w: 10, h: 10 }])).toEqual({ x: 10, y: 10 });
  });
});
