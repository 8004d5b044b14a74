import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setCoreClient } from './client';
import { connectCoreEvents } from './coreEvents';
import { createFakeCore, type FakeCore } from './fakeCore';
import { ingest, useStudio } from './index';

let core: FakeCore;
let off: () => void;
const initial = useStudio.getState();

async function settled() {
  const want = JSON.stringify(core.view().capsules.map((c) => [c.id, c.position]));
  for (let i = 0; i < 100; i++) {
    const s = useStudio.getState();
    if (
      JSON.stringify(s.capsuleIds.map((id) => [id, s.capsules[id].position])) === want &&
      s.edgeViews.length === core.view().edges.length
    )
      return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('store never caught up with the core');
}

beforeEach(async () => {
  useStudio.setState(initial, true);
  core = createFakeCore({
    capsules: [
      { id: 'boss', role: 'orchestrator', position: { x: 0, y: 0 } },
      { id: 'w1', position: { x: 300, y: 0 }, manifestSource: '# mine\nname: w1\n' },
      { id: 'w2', position: { x: 300, y: 200 } },
    ],
  });
  setCoreClient(core);
  off = connectCoreEvents(core, ingest);
  await useStudio.getState().loadFormation();
  await useStudio.getState().connect('boss', 'w1');
  await useStudio.getState().connect('boss', 'w2');
  await settled();
  useStudio.getState().resetHistory();
});

afterEach(() => {
  off();
  setCoreClient(null);
});

describe('removing several nodes', () => {
  it('removes them after one confirm and brings all back, edges between them included, with one undo', async () => {
    useStudio.getState().askRemoval(['boss', 'w1']);
    await useStudio.getState().confirmRemoval();
    await settled();
    expect(core.view().capsules.map((c) => c.id)).toEqual(['w2']);
    expect(core.view().edges).toEqual([]);

    await useStudio.getState().undo();
    await settled();
    expect(
      core
        .view()
        .capsules.map((c) => c.id)
        .sort(),
    ).toEqual(['boss', 'w1', 'w2']);
    expect(core.view().capsules.find((c) => c.id === 'w1')?.manifestSource).toBe('# mine\nname: w1\n');
    expect(
      core
        .view()
        .edges.map((e) => e.id)
        .sort(),
    ).toEqual(['boss->w1', 'boss->w2']);
    expect(useStudio.getState().canUndo).toBe(false);

    await useStudio.getState().redo();
    await settled();
    expect(core.view().capsules.map((c) => c.id)).toEqual(['w2']);
  });

  it('a removal that fails for one node still removes the others, as one step', async () => {
    useStudio.getState().askRemoval(['w1', 'w2']);
    core.view(); // w2 disappears behind the Studio's back
    await core.invoke('capsule.remove', { id: 'w2' });
    await useStudio.getState().confirmRemoval();
    await settled();
    expect(core.view().capsules.map((c) => c.id)).toEqual(['boss']);
    expect(useStudio.getState().notices.at(-1)?.message).toMatch(/Could not remove w2/);
    await useStudio.getState().undo();
    await settled();
    expect(
      core
        .view()
        .capsules.map((c) => c.id)
        .sort(),
    ).toEqual(['boss', 'w1']);
  });
});

describe('duplicating a capsule', () => {
  it('selects the copy; undo removes it with its manifest, redo brings it back under the same name', async () => {
    await useStudio.getState().duplicateCapsule('w1');
    await settled();
    expect(useStudio.getState().selectedId).toBe('w1-copy');
    expect(core.view().capsules.find((c) => c.id === 'w1-copy')?.manifestSource).toBe('# mine\nname: w1\n');
    await useStudio.getState().undo();
    expect(core.calls.at(-1)).toEqual({ cmd: 'capsule.remove', input: { id: 'w1-copy', deleteManifest: true } });
    await useStudio.getState().redo();
    await settled();
    expect(core.calls.at(-1)).toMatchObject({ cmd: 'capsule.duplicate', input: { id: 'w1', name: 'w1-copy' } });
    expect(core.view().capsules.map((c) => c.id)).toContain('w1-copy');
  });
});
