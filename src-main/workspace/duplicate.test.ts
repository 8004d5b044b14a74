import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../src-shared/contract';
import { besideSpot, copyName } from './duplicate-command';
import { createTestStudio, type TestStudio } from './test-studio';

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

describe('copyName', () => {
  it('appends -copy, then -copy-2, …, and never stacks copies of copies', () => {
    expect(copyName('writer', new Set())).toBe('writer-copy');
    expect(copyName('writer', new Set(['writer-copy']))).toBe('writer-copy-2');
    expect(copyName('writer-copy', new Set(['writer-copy']))).toBe('writer-copy-2');
    expect(copyName('writer-copy-2', new Set(['writer-copy', 'writer-copy-2']))).toBe('writer-copy-3');
    expect(copyName('Writer', new Set(['writer-copy']))).toBe('Writer-copy-2');
  });

  it('stays a valid manifest name of at most 63 characters', () => {
    const long = 'a'.repeat(62) + '_';
    const name = copyName(long, new Set());
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toMatch(/^[a-z0-9][a-z0-9._-]{0,62}$/i);
    expect(commands['capsule.duplicate'].input.safeParse({ id: 'x', name }).success).toBe(true);
    expect(copyName('a'.repeat(63), new Set([name]))).toHaveLength(63);
  });
});

describe('besideSpot', () => {
  it('goes right of the original, and down past nodes already there', () => {
    expect(besideSpot({ x: 0, y: 0 }, [{ x: 0, y: 0 }])).toEqual({ x: 280, y: 0 });
    expect(
      besideSpot({ x: 0, y: 0 }, [
        { x: 0, y: 0 },
        { x: 300, y: 20 },
      ]),
    ).toEqual({ x: 280, y: 400 });
  });
});

describe('capsule.duplicate', () => {
  it('writes a copy of the manifest under a new name, without its pinned port, beside the original', async () => {
    studio = await createTestStudio();
    const before = readFileSync(join(studio.workspace, 'capsules', 'researcher.yaml'), 'utf8');
    const view = await studio.core.invoke('capsule.duplicate', { id: 'researcher' });
    expect(view).toMatchObject({
      id: 'researcher-copy',
      name: 'researcher-copy',
      role: 'worker',
      port: null,
      issues: [],
      manifestPath: 'capsules/researcher-copy.yaml',
    });
    const copy = readFileSync(join(studio.workspace, 'capsules', 'researcher-copy.yaml'), 'utf8');
    // The same text but the name and the port line: comments and layout come along.
    expect(copy).toContain('# A worker: answers research questions from the coordinator.');
    expect(copy).not.toContain('internal_port');
    expect(copy).not.toMatch(/^network:/m);
    const { name: _a, network: _b, ...rest } = parse(before);
    const { name, ...copyRest } = parse(copy);
    expect(name).toBe('researcher-copy');
    expect(copyRest).toEqual(rest);
    expect(readFileSync(join(studio.workspace, 'capsules', 'researcher.yaml'), 'utf8')).toBe(before);
    const f = await studio.core.invoke('formation.get', {});
    const original = f.capsules.find((c) => c.id === 'researcher')!;
    expect(view.position.x).toBeGreaterThan(original.position.x);
    // No edge into the copy: the coordinator's allow list is not touched.
    expect(f.edges.some((e) => e.target === 'researcher-copy')).toBe(false);
    const again = await studio.core.invoke('capsule.duplicate', { id: 'researcher' });
    expect(again.id).toBe('researcher-copy-2');
  });

  it("copies an orchestrator's edges out (they are its allow list), and refuses a taken name or a broken manifest", async () => {
    studio = await createTestStudio();
    const view = await studio.core.invoke('capsule.duplicate', {
      id: 'coordinator',
      name: 'lead-b',
      position: { x: 5, y: 900 },
    });
    expect(view).toMatchObject({ id: 'lead-b', position: { x: 5, y: 900 } });
    const f = await studio.core.invoke('formation.get', {});
    expect(
      f.edges
        .filter((e) => e.source === 'lead-b')
        .map((e) => e.target)
        .sort(),
    ).toEqual(['researcher', 'writer']);
    await expect(studio.core.invoke('capsule.duplicate', { id: 'coordinator', name: 'writer' })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(studio.core.invoke('capsule.duplicate', { id: 'nobody' })).rejects.toMatchObject({
      code: 'not_found',
    });
    writeFileSync(join(studio.workspace, 'capsules', 'writer.yaml'), 'name: [unclosed\n');
    await expect(studio.core.invoke('capsule.duplicate', { id: 'writer' })).rejects.toMatchObject({
      code: 'manifest_invalid',
      message: expect.stringContaining('capsules/writer.yaml'),
    });
  });

  it('marks formation entries without a position as unplaced', async () => {
    studio = await createTestStudio();
    const file = join(studio.workspace, 'formation.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    position: { x: 460, y: 80 }\n', ''));
    await studio.core.invoke('workspace.open', { dir: studio.workspace });
    const f = await studio.core.invoke('formation.get', {});
    expect(f.capsules.map((c) => [c.id, c.unplaced ?? false, c.position])).toEqual([
      ['coordinator', false, { x: 80, y: 200 }],
      ['researcher', true, { x: 0, y: 0 }],
      ['writer', false, { x: 460, y: 320 }],
    ]);
    await studio.core.invoke('capsule.move', { id: 'researcher', position: { x: 1, y: 2 } });
    expect((await studio.core.invoke('formation.get', {})).capsules[1].unplaced).toBeUndefined();
  });
});
