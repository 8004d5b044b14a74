import { afterEach, describe, expect, it } from 'vitest';
import type { EventMap } from '../../src-shared/contract';
import { createTestStudio, type TestStudio } from './test-studio';

// formation.changed as the core sends it: what changed, numbered, so a client that folds every
// change holds exactly what formation.get answers.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const changes = (s: TestStudio) =>
  s.events.filter((e) => e.event === 'formation.changed').map((e) => e.payload as EventMap['formation.changed']);

describe('formation changes from the core', () => {
  it('a client folding the changes holds what formation.get answers, through edits, runs and a workspace switch', async () => {
    studio = await createTestStudio();
    const from = changes(studio).length;
    await studio.core.invoke('capsule.move', { id: 'writer', position: { x: 10, y: 20 } });
    const move = changes(studio).at(-1)!;
    // One move: one capsule's position, none of the manifests.
    expect(move.capsules).toEqual({ updated: [{ id: 'writer', set: { position: { x: 10, y: 20 } } }] });
    expect(move.full).toBeUndefined();
    // The same move again changes nothing, so nothing is sent.
    await studio.core.invoke('capsule.move', { id: 'writer', position: { x: 10, y: 20 } });
    expect(changes(studio).at(-1)).toBe(move);

    await studio.core.invoke('capsule.add', { kind: 'worker', name: 'extra', position: { x: 1, y: 1 } });
    await studio.core.invoke('edge.connect', { source: 'coordinator', target: 'extra' });
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'hello' });
    await new Promise((r) => setTimeout(r, 50)); // the state after the task settles a tick later
    expect(studio.view()).toEqual(await studio.core.invoke('formation.get', {}));
    await studio.core.invoke('edge.disconnect', { source: 'coordinator', target: 'extra' });
    await studio.core.invoke('capsule.remove', { id: 'extra', deleteManifest: true });
    await studio.core.invoke('capsule.stop', { id: 'writer' });
    const got = await studio.core.invoke('formation.get', {});
    expect(studio.missed).toBe(0);
    expect(studio.view()).toEqual(got);
    const sent = changes(studio).slice(from);
    for (let i = 1; i < sent.length; i++) expect(sent[i].version).toBe(sent[i - 1].version + 1);
    expect(sent.every((c) => !c.full)).toBe(true);

    // Another workspace goes out whole, numbered on.
    const last = sent.at(-1)!.version;
    const opened = await studio.core.invoke('workspace.create', { dir: `${studio.home}/other` });
    const whole = changes(studio).at(-1)!;
    expect(whole).toMatchObject({ version: last + 1, full: { dir: `${studio.home}/other`, capsules: [] } });
    expect(opened.version).toBe(last + 1);
    expect(studio.view()).toEqual(await studio.core.invoke('formation.get', {}));
  });
});
