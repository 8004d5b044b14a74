import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FormationChange } from '../../src-shared/contract';
import { setCoreClient } from './client';
import { createFakeCore, type FakeCore } from './fakeCore';
import { emptyBatch } from './fold';
import { ingest, useStudio } from './index';

// formation.changed as diffs: applied keeping every unchanged object, older ones ignored, and a
// missed one makes the store read the whole formation again.

const initial = useStudio.getState();
let core: FakeCore;
let heard: FormationChange[];

const fold = (...changes: FormationChange[]) =>
  ingest({ ...emptyBatch(), formations: changes.map((change) => ({ change, after: 0 })) });
const formationGets = () => core.calls.filter((c) => c.cmd === 'formation.get').length;

beforeEach(async () => {
  useStudio.setState(initial, true);
  core = createFakeCore({
    capsules: Array.from({ length: 300 }, (_, i) => ({ id: `c${i}`, position: { x: i, y: 0 } })),
  });
  heard = [];
  core.on('formation.changed', (c) => void heard.push(c));
  setCoreClient(core);
  await useStudio.getState().loadFormation();
});
afterEach(() => setCoreClient(null));

describe('folding formation changes', () => {
  it('a move changes one capsule object; every other one, the id list and the edges keep their identity', async () => {
    const before = useStudio.getState();
    await core.invoke('capsule.move', { id: 'c7', position: { x: 70, y: 70 } });
    expect(heard).toHaveLength(1);
    fold(heard[0]);
    const after = useStudio.getState();
    expect(after.capsules.c7.position).toEqual({ x: 70, y: 70 });
    expect(after.capsules.c7).not.toBe(before.capsules.c7);
    expect(after.capsules.c6).toBe(before.capsules.c6);
    expect(after.capsules.c299).toBe(before.capsules.c299);
    expect(after.capsuleIds).toBe(before.capsuleIds);
    expect(after.edgeViews).toBe(before.edgeViews);
    expect(after.workspace).toBe(before.workspace);
    expect(after.formationVersion).toBe(heard[0].version);
    // Graph nodes other than the moved one keep theirs too.
    expect(after.flowNodes.find((n) => n.id === 'c6')).toBe(before.flowNodes.find((n) => n.id === 'c6'));
  });

  it('adds, removes and connects as the core says, and ends where formation.get would', async () => {
    await core.invoke('capsule.add', { kind: 'orchestrator', name: 'boss', position: { x: 1, y: 1 } });
    await core.invoke('edge.connect', { source: 'boss', target: 'c1' });
    await core.invoke('capsule.remove', { id: 'c2' });
    fold(...heard);
    const s = useStudio.getState();
    const v = core.view();
    expect(s.capsuleIds).toEqual(v.capsules.map((c) => c.id));
    expect(s.capsuleIds.map((id) => s.capsules[id])).toEqual(v.capsules);
    expect(s.edgeViews).toEqual(v.edges);
    expect(s.formationVersion).toBe(v.version);
    expect(s.formationBehind).toBe(false);
  });

  it('ignores a change it holds already; a missed one makes it read the whole formation once', async () => {
    await core.invoke('capsule.move', { id: 'c1', position: { x: 10, y: 10 } });
    await core.invoke('capsule.move', { id: 'c2', position: { x: 20, y: 20 } });
    await core.invoke('capsule.move', { id: 'c3', position: { x: 30, y: 30 } });
    fold(heard[0]);
    const held = useStudio.getState();
    fold(heard[0]); // again: nothing changes
    expect(useStudio.getState().capsules).toBe(held.capsules);
    const gets = formationGets();
    fold(heard[2]); // heard[1] never arrived
    expect(useStudio.getState().capsules.c3.position).toEqual({ x: 3, y: 0 });
    expect(useStudio.getState().formationBehind).toBe(true);
    await expect.poll(() => useStudio.getState().formationBehind).toBe(false);
    expect(formationGets()).toBe(gets + 1);
    const s = useStudio.getState();
    expect(s.capsules.c2.position).toEqual({ x: 20, y: 20 });
    expect(s.capsules.c3.position).toEqual({ x: 30, y: 30 });
    expect(s.capsules.c1).toBe(held.capsules.c1); // the whole view keeps unchanged objects too
    expect(s.formationVersion).toBe(heard[2].version);
  });

  it('a whole view older than the version held is ignored; a newer one replaces it', async () => {
    await core.invoke('capsule.move', { id: 'c1', position: { x: 10, y: 10 } });
    fold(heard[0]);
    const v = useStudio.getState().formationVersion!;
    const stale = { ...core.view(), version: v - 1, capsules: [] };
    fold({ version: v - 1, dir: '/ws', full: stale });
    expect(useStudio.getState().capsuleIds).toHaveLength(300);
    fold({ version: v + 1, dir: '/other', full: { ...stale, dir: '/other', version: v + 1 } });
    expect(useStudio.getState()).toMatchObject({
      capsuleIds: [],
      formationVersion: v + 1,
      workspace: { dir: '/other' },
    });
  });
});
