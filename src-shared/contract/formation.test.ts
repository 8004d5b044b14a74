import { describe, expect, it } from 'vitest';
import { applyFormationChange, diffFormation } from './formation';
import type { CapsuleView, FormationView } from './types';

const capsule = (id: string, extra: Partial<CapsuleView> = {}): CapsuleView => ({
  id,
  name: id,
  manifestPath: `capsules/${id}.yaml`,
  position: { x: 0, y: 0 },
  role: 'worker',
  driver: 'rehearsal',
  model: null,
  rehearsal: true,
  port: null,
  manifestSource: `name: ${id}\n# ${'x'.repeat(2000)}\n`,
  manifestHash: `h-${id}`,
  issues: [],
  state: 'stopped',
  queued: 0,
  tasks: 0,
  acceptsPeerTasks: false,
  allow: [],
  ...extra,
});
const formation = (capsules: CapsuleView[], extra: Partial<FormationView> = {}): FormationView => ({
  dir: '/ws',
  name: 'ws',
  capsules,
  remotes: [],
  edges: [],
  issues: [],
  version: 1,
  ...extra,
});

describe('formation changes', () => {
  it('a move carries the one position, and applying it keeps every other capsule', () => {
    const before = formation(Array.from({ length: 300 }, (_, i) => capsule(`c${i}`)));
    const after = {
      ...before,
      capsules: before.capsules.map((c) => (c.id === 'c7' ? { ...c, position: { x: 5, y: 6 } } : c)),
    };
    const change = diffFormation(before, after, 2)!;
    expect(change).toEqual({
      version: 2,
      dir: '/ws',
      capsules: { updated: [{ id: 'c7', set: { position: { x: 5, y: 6 } } }] },
    });
    expect(JSON.stringify(change).length).toBeLessThan(200);
    const applied = applyFormationChange(before, change)!;
    expect(applied).toEqual({ ...after, version: 2 });
    expect(applied.capsules[6]).toBe(before.capsules[6]);
    expect(applied.capsules[7]).not.toBe(before.capsules[7]);
    // Nothing changed: nothing to send.
    expect(diffFormation(after, { ...after, capsules: after.capsules.map((c) => ({ ...c })) }, 3)).toBeUndefined();
  });

  it('rebuilds additions, removals, order, fields gone, edges and the workspace fields exactly', () => {
    const before = formation(
      [capsule('a', { url: 'http://127.0.0.1:1', sessionId: 'ses_1', state: 'idle' }), capsule('b'), capsule('c')],
      { runningElsewhere: 2 },
    );
    const after: FormationView = {
      ...before,
      name: 'renamed',
      issues: [{ path: 'capsules', message: 'odd' }],
      capsules: [capsule('c'), capsule('a', { state: 'stopped' }), capsule('d')],
      edges: [{ id: 'a->c', source: 'a', target: 'c', targetKind: 'capsule', address: 'localhost:1' }],
      remotes: [{ id: 'r', url: 'https://r.example/', position: { x: 1, y: 1 } }],
    };
    delete after.runningElsewhere;
    const change = diffFormation(before, after, 2)!;
    expect(change.capsules).toMatchObject({
      added: [{ id: 'd' }],
      removed: ['b'],
      updated: [{ id: 'a', set: { state: 'stopped' }, unset: ['url', 'sessionId'] }],
      order: ['c', 'a', 'd'],
    });
    expect(change.runningElsewhere).toBe(0);
    expect(applyFormationChange(before, change)).toEqual({ ...after, version: 2 });
    // An edge whose address changed comes back whole.
    const moved = { ...after, version: 2, edges: [{ ...after.edges[0], address: 'localhost:2' }] };
    const edgeChange = diffFormation({ ...after, version: 2 }, moved, 3)!;
    expect(edgeChange.edges).toEqual({ updated: [moved.edges[0]] });
    expect(applyFormationChange({ ...after, version: 2 }, edgeChange)).toEqual({ ...moved, version: 3 });
  });

  it('applies only the change just past the version held; a whole view replaces anything', () => {
    const v1 = formation([capsule('a')]);
    const v2 = { ...v1, capsules: [capsule('a', { position: { x: 1, y: 1 } })] };
    const change = diffFormation(v1, v2, 3)!;
    expect(applyFormationChange(v1, change)).toBeUndefined(); // v2 was missed
    expect(applyFormationChange(undefined, change)).toBeUndefined();
    expect(applyFormationChange({ ...v1, dir: '/other' }, { ...change, version: 2 })).toBeUndefined();
    expect(applyFormationChange(v1, { version: 9, dir: '/other', full: { ...v2, dir: '/other' } })).toEqual({
      ...v2,
      dir: '/other',
      version: 9,
    });
  });
});
