import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setCoreClient } from './client';
import { connectCoreEvents } from './coreEvents';
import { createFakeCore, type FakeCore } from './fakeCore';
import { ingest, useStudio } from './index';

let core: FakeCore;
let off: () => void;
const initial = useStudio.getState();

/** Waits until the store has folded the core's latest formation (events flush per frame). */
async function settled() {
  const want = JSON.stringify(core.view().capsules.map((c) => [c.id, c.position, c.manifestHash]));
  for (let i = 0; i < 100; i++) {
    const s = useStudio.getState();
    const have = JSON.stringify(s.capsuleIds.map((id) => [id, s.capsules[id].position, s.capsules[id].manifestHash]));
    if (have === want && s.edgeViews.length === core.view().edges.length) return;
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
    ],
  });
  setCoreClient(core);
  off = connectCoreEvents(core, ingest);
  await useStudio.getState().loadFormation();
  useStudio.getState().resetHistory();
});

afterEach(() => {
  off();
  setCoreClient(null);
});

describe('graph edits with undo/redo', () => {
  it('derives canvas nodes and edges from the formation', async () => {
    await useStudio.getState().connect('boss', 'w1');
    await settled();
    const s = useStudio.getState();
    expect(s.flowNodes.map((n) => n.id)).toEqual(['boss', 'w1']);
    expect(s.flowEdges).toMatchObject([{ id: 'boss->w1', source: 'boss', target: 'w1' }]);
  });

  it('undoes and redoes an add, a move and a connect with inverse commands', async () => {
    const s = useStudio.getState();
    await s.addCapsuleAt('worker', { x: 10, y: 20 });
    await settled();
    expect(core.view().capsules.map((c) => c.id)).toEqual(['boss', 'w1', 'worker']);
    await s.moveNodes([{ id: 'worker', from: { x: 10, y: 20 }, to: { x: 50, y: 60 } }]);
    await s.connect('boss', 'worker');
    await settled();
    expect(useStudio.getState().canUndo).toBe(true);

    await s.undo(); // connect
    expect(core.view().edges).toEqual([]);
    await s.undo(); // move
    expect(core.view().capsules.find((c) => c.id === 'worker')?.position).toEqual({ x: 10, y: 20 });
    await s.undo(); // add
    expect(core.view().capsules.map((c) => c.id)).toEqual(['boss', 'w1']);
    expect(core.calls.at(-1)).toEqual({ cmd: 'capsule.remove', input: { id: 'worker', deleteManifest: true } });

    await s.redo();
    await s.redo();
    await s.redo();
    await settled();
    expect(core.view().capsules.find((c) => c.id === 'worker')?.position).toEqual({ x: 50, y: 60 });
    expect(core.view().edges.map((e) => e.id)).toEqual(['boss->worker']);
    expect(useStudio.getState().canRedo).toBe(false);
  });

  it('brings a removed capsule back with its manifest text and its incoming edges', async () => {
    const s = useStudio.getState();
    await s.connect('boss', 'w1');
    await settled();
    s.askRemoval(['w1']);
    expect(useStudio.getState().pendingRemoval).toEqual({ nodeIds: ['w1'] });
    await useStudio.getState().confirmRemoval();
    await settled();
    expect(core.view().capsules.map((c) => c.id)).toEqual(['boss']);
    expect(core.view().edges).toEqual([]);

    await s.undo();
    await settled();
    const back = core.view().capsules.find((c) => c.name === 'w1');
    expect(back?.manifestSource).toBe('# mine\nname: w1\n');
    expect(core.view().edges.map((e) => e.id)).toEqual(['boss->w1']);
  });

  it('turns a failed edit into a notice and records nothing', async () => {
    await useStudio.getState().disconnect(['boss->w1']); // no such edge view: nothing happens
    await useStudio.getState().moveNodes([{ id: 'ghost', from: { x: 0, y: 0 }, to: { x: 1, y: 1 } }]);
    expect(useStudio.getState().notices.at(-1)?.message).toMatch(/no capsule ghost/);
    expect(useStudio.getState().canUndo).toBe(false);
  });

  it('only lets orchestrators delegate', async () => {
    await useStudio.getState().connect('w1', 'boss');
    expect(core.view().edges).toEqual([]);
    expect(useStudio.getState().notices.at(-1)?.message).toMatch(/not an orchestrator/);
  });
});

describe('manifest editing', () => {
  it('saves a draft, and turns a change on disk into a conflict that keeps the draft', async () => {
    const s = useStudio.getState();
    s.openEditor('w1');
    s.setDraft('name: w1\nversion: "2"\n');
    await useStudio.getState().saveManifest();
    expect(core.view().capsules.find((c) => c.id === 'w1')?.manifestSource).toBe('name: w1\nversion: "2"\n');
    await settled();
    expect(useStudio.getState().editor?.conflict).toBeNull();

    // Another editor writes the file while the user has unsaved edits.
    useStudio.getState().setDraft('name: w1\nversion: "3"\n');
    await core.invoke('manifest.write', { id: 'w1', source: 'name: w1\n# theirs\n' });
    await settled();
    const ed = useStudio.getState().editor!;
    expect(ed.draft).toBe('name: w1\nversion: "3"\n');
    expect(ed.conflict?.message).toMatch(/changed on disk/);

    await useStudio.getState().overwriteManifest();
    expect(core.view().capsules.find((c) => c.id === 'w1')?.manifestSource).toBe('name: w1\nversion: "3"\n');
    expect(useStudio.getState().editor?.conflict).toBeNull();
  });

  it('takes a change on disk silently when the draft is clean', async () => {
    useStudio.getState().openEditor('w1');
    await core.invoke('manifest.write', { id: 'w1', source: 'name: w1\n# edited elsewhere\n' });
    await settled();
    expect(useStudio.getState().editor).toMatchObject({ draft: 'name: w1\n# edited elsewhere\n', conflict: null });
  });
});
