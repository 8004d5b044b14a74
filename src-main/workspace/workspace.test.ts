import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../src-shared/contract';
import { createTestStudio, type TestStudio } from './test-studio';

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const readYaml = (file: string) => parse(readFileSync(file, 'utf8'));

describe('workspaces', () => {
  it('opens the example workspace when none was chosen, from a copy in the user data folder', async () => {
    studio = await createTestStudio({ workspace: null });
    const f = await studio.core.invoke('formation.get', {});
    expect(f.dir).toBe(join(studio.home, 'data', 'example-workspace'));
    expect(f.capsules.map((c) => [c.id, c.role, c.rehearsal])).toEqual([
      ['coordinator', 'orchestrator', true],
      ['researcher', 'worker', true],
      ['writer', 'worker', true],
    ]);
    expect(f.capsules.every((c) => c.issues.length === 0)).toBe(true);
    expect(f.edges.map((e) => `${e.id}:${e.targetKind}`)).toEqual([
      'coordinator->researcher:capsule',
      'coordinator->writer:capsule',
    ]);
    expect((await studio.core.invoke('workspace.recent', {})).map((r) => r.dir)).toEqual([f.dir]);
  });

  it('creates a workspace, refuses a non-empty folder, and names a missing folder', async () => {
    studio = await createTestStudio();
    const fresh = join(studio.home, 'fresh');
    const f = await studio.core.invoke('workspace.create', { dir: fresh });
    expect(f.capsules).toEqual([]);
    expect(existsSync(join(fresh, 'formation.yaml'))).toBe(true);
    await expect(studio.core.invoke('workspace.create', { dir: studio.workspace })).rejects.toMatchObject({
      code: 'conflict',
    });
    const missing = join(studio.home, 'gone');
    await expect(studio.core.invoke('workspace.open', { dir: missing })).rejects.toMatchObject({
      code: 'workspace_missing',
      message: expect.stringContaining(missing),
    });
    const recent = await studio.core.invoke('workspace.recent', {});
    expect(recent[0]).toMatchObject({ dir: fresh, exists: true });
  });

  it('adds a capsule from a template: a manifest on disk and an entry that keeps the comments of formation.yaml', async () => {
    studio = await createTestStudio();
    const view = await studio.core.invoke('capsule.add', { kind: 'worker', position: { x: 10.4, y: 20 } });
    expect(view).toMatchObject({
      id: 'worker',
      role: 'worker',
      rehearsal: true,
      position: { x: 10, y: 20 },
      issues: [],
    });
    const manifest = readYaml(join(studio.workspace, 'capsules', 'worker.yaml'));
    expect(manifest).toMatchObject({
      name: 'worker',
      role: 'worker',
      inference: { driver: { artifact: 'capsule/driver-rehearsal' } },
    });
    const formation = readFileSync(join(studio.workspace, 'formation.yaml'), 'utf8');
    expect(formation).toContain('# Example formation: a coordinator that delegates to two workers.');
    expect(parse(formation).capsules.at(-1)).toEqual({
      id: 'worker',
      manifest: 'capsules/worker.yaml',
      position: { x: 10, y: 20 },
    });
    const second = await studio.core.invoke('capsule.add', { kind: 'worker', position: { x: 0, y: 0 } });
    expect(second.id).toBe('worker-2');
    await studio.core.invoke('capsule.move', { id: 'worker', position: { x: 300, y: 40 } });
    expect(
      parse(readFileSync(join(studio.workspace, 'formation.yaml'), 'utf8')).capsules.find(
        (c: { id: string }) => c.id === 'worker',
      ).position,
    ).toEqual({ x: 300, y: 40 });
  });

  it('connect writes the allow entry and the export, pinning a free port; disconnect takes both back, comments kept', async () => {
    studio = await createTestStudio();
    await studio.core.invoke('capsule.add', { kind: 'orchestrator', name: 'boss', position: { x: 0, y: 0 } });
    await studio.core.invoke('capsule.add', { kind: 'worker', name: 'helper', position: { x: 0, y: 0 } });
    const bossFile = join(studio.workspace, 'capsules', 'boss.yaml');
    const helperFile = join(studio.workspace, 'capsules', 'helper.yaml');

    const res = await studio.core.invoke('edge.connect', { source: 'boss', target: 'helper' });
    expect(res.pinnedPort).toBeGreaterThan(1023);
    expect(res.message).toMatch(/Pinned helper to port \d+/);
    expect(res.edge).toMatchObject({ source: 'boss', target: 'helper', targetKind: 'capsule' });
    const helper = readYaml(helperFile);
    expect(helper.network.internal_port).toBe(res.pinnedPort);
    expect(helper.exports.peer_tasks.accept).toBe(true);
    expect(readYaml(bossFile).capabilities.network.allow).toEqual([`localhost:${res.pinnedPort}`]);
    expect(readFileSync(bossFile, 'utf8')).toContain('# Where this capsule may connect.');
    const f = await studio.core.invoke('formation.get', {});
    expect(f.edges.find((e) => e.source === 'boss')).toMatchObject({ target: 'helper', targetKind: 'capsule' });

    // Connecting twice changes nothing.
    const again = await studio.core.invoke('edge.connect', { source: 'boss', target: 'helper' });
    expect(again.pinnedPort).toBeUndefined();
    expect(readYaml(bossFile).capabilities.network.allow).toHaveLength(1);

    const off = await studio.core.invoke('edge.disconnect', { source: 'boss', target: 'helper' });
    expect(off.revokedExport).toBe(true);
    expect(readYaml(bossFile).capabilities.network.allow).toEqual([]);
    const after = readYaml(helperFile);
    expect(after.exports.peer_tasks.accept).toBe(false);
    expect(after.network.internal_port).toBe(res.pinnedPort);
    expect(readFileSync(helperFile, 'utf8')).toContain(
      '# Drawing an edge from an orchestrator to this worker turns this on.',
    );
    expect((await studio.core.invoke('formation.get', {})).edges.filter((e) => e.source === 'boss')).toEqual([]);
  });

  it('keeps a worker exported while another orchestrator still points at it', async () => {
    studio = await createTestStudio();
    await studio.core.invoke('capsule.add', { kind: 'orchestrator', name: 'second', position: { x: 0, y: 0 } });
    await studio.core.invoke('edge.connect', { source: 'second', target: 'writer' });
    const off = await studio.core.invoke('edge.disconnect', { source: 'coordinator', target: 'writer' });
    expect(off.revokedExport).toBe(false);
    expect(readYaml(join(studio.workspace, 'capsules', 'writer.yaml')).exports.peer_tasks.accept).toBe(true);
    const researcherPort = readYaml(join(studio.workspace, 'capsules', 'researcher.yaml')).network.internal_port;
    expect(readYaml(join(studio.workspace, 'capsules', 'coordinator.yaml')).capabilities.network.allow).toEqual([
      `localhost:${researcherPort}`,
    ]);
    // The comment beside the pinned port survives the edits.
    expect(readFileSync(join(studio.workspace, 'capsules', 'writer.yaml'), 'utf8')).toMatch(
      /internal_port: \d+ {2}# pinned so the coordinator's allow entry stays valid/,
    );
    await expect(
      studio.core.invoke('edge.disconnect', { source: 'coordinator', target: 'writer' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('removing a capsule removes the edges into it; its manifest stays unless asked', async () => {
    studio = await createTestStudio();
    const writerPort = (await studio.core.invoke('formation.get', {})).capsules.find((c) => c.id === 'writer')!.port;
    await studio.core.invoke('capsule.remove', { id: 'writer' });
    expect(readYaml(join(studio.workspace, 'capsules', 'coordinator.yaml')).capabilities.network.allow).not.toContain(
      `localhost:${writerPort}`,
    );
    expect(existsSync(join(studio.workspace, 'capsules', 'writer.yaml'))).toBe(true);
    const f = await studio.core.invoke('formation.get', {});
    expect(f.capsules.map((c) => c.id)).toEqual(['coordinator', 'researcher']);
    expect(f.edges.map((e) => e.id)).toEqual(['coordinator->researcher']);
    await studio.core.invoke('capsule.remove', { id: 'researcher', deleteManifest: true });
    expect(existsSync(join(studio.workspace, 'capsules', 'researcher.yaml'))).toBe(false);
  });

  it('draws a hand-written allow entry that matches no capsule as an external edge', async () => {
    studio = await createTestStudio();
    const file = join(studio.workspace, 'capsules', 'coordinator.yaml');
    const changed = studio.nextView((f) => f.edges.some((e) => e.targetKind === 'external'));
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('    allow:\n', '    allow:\n      - api.example.com:443\n'),
    );
    const f = await changed;
    expect(f.edges.find((e) => e.targetKind === 'external')).toMatchObject({
      source: 'coordinator',
      target: 'external:api.example.com:443',
      address: 'api.example.com:443',
    });
  });

  it('shows edits made by another editor, and refuses a write based on an older version', async () => {
    studio = await createTestStudio();
    const before = await studio.core.invoke('manifest.read', { id: 'writer' });
    const file = join(studio.workspace, before.path);
    const changed = studio.nextView((f) =>
      f.capsules.find((c) => c.id === 'writer')!.manifestSource.includes('Drafts long essays'),
    );
    writeFileSync(file, before.source.replace('Drafts short paragraphs.', 'Drafts long essays.'));
    const f = await changed;
    const writer = f.capsules.find((c) => c.id === 'writer')!;
    expect(writer.manifestHash).not.toBe(before.hash);

    const conflicted = studio.next('manifest.conflicted');
    const err = await studio.core
      .invoke('manifest.write', {
        id: 'writer',
        source: before.source.replace('writer', 'scribe'),
        expected: before.hash,
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect(err).toMatchObject({ code: 'conflict' });
    expect((await conflicted).id).toBe('writer');
    expect(readFileSync(file, 'utf8')).toContain('Drafts long essays.');

    const ok = await studio.core.invoke('manifest.write', {
      id: 'writer',
      source: writer.manifestSource.replace('long essays', 'poems'),
      expected: writer.manifestHash,
    });
    expect(ok.issues).toEqual([]);
    expect(readFileSync(file, 'utf8')).toContain('Drafts poems.');
  });

  it('refuses to save a manifest it could not read back (over 1 MiB as UTF-8), and leaves the file as it was', async () => {
    studio = await createTestStudio();
    const w = await studio.core.invoke('manifest.read', { id: 'writer' });
    const file = join(studio.workspace, w.path);
    // Under the IPC limit of a million characters, but three bytes each on disk.
    const big = `${w.source}\n# ${'€'.repeat(400_000)}\n`;
    await expect(
      studio.core.invoke('manifest.write', { id: 'writer', source: big, expected: w.hash }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(
        /writer\.yaml would be 1\.1 MiB; a manifest or formation file may be at most 1\.0 MiB\./,
      ),
    });
    expect(readFileSync(file, 'utf8')).toBe(w.source);
    const f = await studio.core.invoke('formation.get', {});
    expect(f.capsules.find((c) => c.id === 'writer')!.issues).toEqual([]);
  });

  it('loads a broken manifest with its issues on the node (with lines), and refuses to launch it', async () => {
    studio = await createTestStudio();
    const w = await studio.core.invoke('manifest.read', { id: 'writer' });
    const res = await studio.core.invoke('manifest.write', {
      id: 'writer',
      source: w.source.replace('task_acceptance: queue', 'task_acceptance: sometimes'),
      expected: w.hash,
    });
    expect(res.issues[0]).toMatchObject({ path: 'lifecycle.task_acceptance' });
    expect(res.issues[0].line).toBe(w.source.split('\n').findIndex((l) => l.includes('task_acceptance')) + 1);
    await studio.core.invoke('manifest.write', { id: 'researcher', source: 'name: [unclosed\n' });
    const f = await studio.core.invoke('formation.get', {});
    expect(f.capsules).toHaveLength(3);
    expect(f.capsules.find((c) => c.id === 'researcher')!.issues[0]).toMatchObject({
      line: expect.any(Number),
      message: expect.stringMatching(/flow|collection|\]/i),
    });
    await expect(studio.core.invoke('capsule.launch', { id: 'writer' })).rejects.toMatchObject({
      code: 'manifest_invalid',
      message: expect.stringContaining('task_acceptance'),
    });
  });

  it('shows a missing manifest file as an issue on its node', async () => {
    studio = await createTestStudio();
    const dir = join(studio.home, 'w2');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'formation.yaml'),
      '# mine\ncapsules:\n  - id: ghost\n    manifest: ghost.yaml\n    position: {x: 1, y: 2}\n  - id: 7\n',
    );
    const f = await studio.core.invoke('workspace.open', { dir });
    expect(f.capsules[0].issues[0].message).toMatch(/cannot read ghost.yaml: it does not exist/);
    expect(f.issues[0]).toMatchObject({ path: 'capsules.1.id', line: 6 });
  });
});
