import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from '../workspace/test-studio';

// The Studio's saves as history steps, through the contract as a window calls it.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('Studio history', () => {
  it('makes every save a step, diffs the permissions an edge changed, and restores as a new step', async () => {
    studio = await createTestStudio();
    const { core, workspace } = studio;
    expect(await core.invoke('history.list', {})).toEqual({ started: false, steps: [], published: null });

    await core.invoke('capsule.move', { id: 'writer', position: { x: 500, y: 400 } });
    const created = await studio.next('notice.raised', (n) => /now keeps its history/.test(n.message));
    expect(created.level).toBe('info');
    await core.invoke('edge.disconnect', { source: 'coordinator', target: 'writer' });
    const list = await core.invoke('history.list', {});
    expect(list.started).toBe(true);
    expect(list.steps.map((s) => s.message)).toEqual(['Disconnect coordinator → writer', 'Move writer']);
    expect(list.steps[0].capsules).toContain('coordinator');
    // The repository is a plain git repository the user's own tools read.
    expect((await git.log({ fs, dir: workspace })).length).toBe(2);

    const diff = await core.invoke('history.diff', { from: list.steps[1].short, to: list.steps[0].short });
    expect(diff.edges).toEqual([
      expect.objectContaining({ source: 'coordinator', target: 'writer', change: 'removed' }),
    ]);
    expect(diff.permissions.some((p) => /^coordinator may no longer call writer at localhost:\d+$/.test(p))).toBe(true);

    const before = readFileSync(join(workspace, 'capsules/coordinator.yaml'), 'utf8');
    const step = await core.invoke('history.restore', { version: list.steps[1].short });
    expect(step.message).toBe(`Restore version ${list.steps[1].short}`);
    const after = readFileSync(join(workspace, 'capsules/coordinator.yaml'), 'utf8');
    expect(after).not.toBe(before);
    // Clients were told at once: the edge is back on the canvas.
    expect(studio.view()!.edges.some((e) => e.source === 'coordinator' && e.target === 'writer')).toBe(true);
    expect((await core.invoke('history.list', {})).steps).toHaveLength(3);
  });

  it('keeps no history when the user said so (CAPSULE_HISTORY=off)', async () => {
    studio = await createTestStudio({ env: { CAPSULE_HISTORY: 'off' } });
    await studio.core.invoke('capsule.move', { id: 'writer', position: { x: 1, y: 2 } });
    expect((await studio.core.invoke('history.list', {})).started).toBe(false);
    expect(fs.existsSync(join(studio.workspace, '.git'))).toBe(false);
  });

  it('refuses bad versions at the boundary, and unknown ones in words', async () => {
    studio = await createTestStudio();
    await expect(studio.core.invoke('history.diff', { from: '../etc' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(studio.core.invoke('history.restore', { version: 'abcdef1' })).rejects.toThrow(/has no history yet/);
    await studio.core.invoke('capsule.move', { id: 'writer', position: { x: 1, y: 2 } });
    await expect(studio.core.invoke('history.restore', { version: 'abcdef1' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
