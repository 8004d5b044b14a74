import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareVersions, listSteps, restoreVersion, saveStep } from '.';

// The workspace's history on real temp folders, read back with isomorphic-git as a user's own git
// tools would see it.

const FORMATION = `capsules:
  - id: orchestrator
    manifest: capsules/orchestrator.yaml
    position: { x: 0, y: 0 }
  - id: worker
    manifest: capsules/worker.yaml
    position: { x: 200, y: 0 }
remotes: []
`;
const manifest = (name: string, extra = '') =>
  `name: ${name}\nversion: 1.0.0\ninference:\n  driver: { artifact: rehearsal }\n  model: rehearsal\n${extra}`;
const WORKER = manifest('worker', 'network:\n  internal_port: 7102\n');
const ORCH = manifest('orchestrator');
const ORCH_ALLOWED = manifest('orchestrator', 'capabilities:\n  network:\n    allow: ["localhost:7102"]\n');
const WORKER_ACCEPTS = manifest(
  'worker',
  'network:\n  internal_port: 7102\nexports:\n  peer_tasks:\n    accept: true\n',
);

let dir: string;
const write = (rel: string, text: string) => {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), text);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-history-'));
  write('formation.yaml', FORMATION);
  write('capsules/orchestrator.yaml', ORCH);
  write('capsules/worker.yaml', WORKER);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('history', () => {
  it('creates the repository on the first save and commits only the files the Studio keeps', async () => {
    write('notes.txt', 'my own notes');
    const first = await saveStep(dir, 'Create the formation');
    expect(first.created).toBe(true);
    expect(first.step?.capsules).toEqual(['orchestrator', 'worker']);
    const files = await git.listFiles({ fs, dir, ref: 'HEAD' });
    expect(files.sort()).toEqual(['capsules/orchestrator.yaml', 'capsules/worker.yaml', 'formation.yaml']);
    // Nothing changed: no empty step.
    expect((await saveStep(dir, 'Again')).step).toBeUndefined();
    // The files committed are clean for the user's git status.
    const status = await git.statusMatrix({ fs, dir, filepaths: ['formation.yaml', 'capsules/worker.yaml'] });
    expect(status.every(([, h, w, s]) => h === 1 && w === 1 && s === 1)).toBe(true);
  });

  it('lists steps newest first with who and which capsules, hand commits among them', async () => {
    await saveStep(dir, 'Create the formation');
    write('capsules/worker.yaml', WORKER + 'description: hand edit\n');
    await git.add({ fs, dir, filepath: 'capsules/worker.yaml' });
    await git.commit({
      fs,
      dir,
      message: 'Hand edit of the worker',
      author: { name: 'Ada', email: 'ada@example.com' },
    });
    write('capsules/orchestrator.yaml', ORCH_ALLOWED);
    await saveStep(dir, 'Edit orchestrator');
    const steps = await listSteps(dir);
    expect(steps.map((s) => [s.message, s.capsules])).toEqual([
      ['Edit orchestrator', ['orchestrator']],
      ['Hand edit of the worker', ['worker']],
      ['Create the formation', ['orchestrator', 'worker']],
    ]);
    expect(steps[1].author).toBe('Ada');
    expect(steps[0].short).toHaveLength(7);
  });

  it('leaves what the user staged by hand out of a Studio step', async () => {
    await saveStep(dir, 'Create the formation');
    write('notes.txt', 'staged by hand');
    await git.add({ fs, dir, filepath: 'notes.txt' });
    write('capsules/worker.yaml', WORKER_ACCEPTS);
    await saveStep(dir, 'Edit worker');
    expect(await git.listFiles({ fs, dir, ref: 'HEAD' })).not.toContain('notes.txt');
    // Still staged for the user's own commit.
    expect(await git.listFiles({ fs, dir })).toContain('notes.txt');
  });

  it('diffs two versions: manifests side by side and the permissions an edge granted', async () => {
    const a = (await saveStep(dir, 'Create the formation')).step!;
    write('capsules/orchestrator.yaml', ORCH_ALLOWED);
    write('capsules/worker.yaml', WORKER_ACCEPTS);
    const b = (await saveStep(dir, 'Connect orchestrator → worker')).step!;
    const diff = await compareVersions(dir, a.short, b.short);
    expect(diff.capsules.map((c) => [c.id, c.change])).toEqual([
      ['orchestrator', 'changed'],
      ['worker', 'changed'],
    ]);
    expect(diff.capsules[0].before).toBe(ORCH);
    expect(diff.capsules[0].after).toBe(ORCH_ALLOWED);
    expect(diff.edges).toEqual([
      { source: 'orchestrator', target: 'worker', address: 'localhost:7102', change: 'added' },
    ]);
    expect(diff.permissions).toEqual([
      'orchestrator may now call worker at localhost:7102',
      'worker now accepts peer tasks',
    ]);
    const back = await compareVersions(dir, b.short, a.short);
    expect(back.permissions).toEqual([
      'orchestrator may no longer call worker at localhost:7102',
      'worker no longer accepts peer tasks',
    ]);
    // Against the draft on disk.
    write('capsules/worker.yaml', WORKER);
    const draft = await compareVersions(dir, b.version);
    expect(draft.to).toBe('draft');
    expect(draft.permissions).toEqual(['worker no longer accepts peer tasks']);
  });

  it('names capsules added and removed', async () => {
    const a = (await saveStep(dir, 'Create')).step!;
    write(
      'formation.yaml',
      FORMATION.replace(/ {2}- id: worker[\s\S]*?(?=remotes)/, '  - id: writer\n    manifest: capsules/writer.yaml\n'),
    );
    write('capsules/writer.yaml', manifest('writer'));
    const diff = await compareVersions(dir, a.short);
    expect(diff.capsules.map((c) => [c.id, c.change])).toEqual([
      ['worker', 'removed'],
      ['writer', 'added'],
    ]);
    expect(diff.formationChanged).toBe(true);
  });

  it('restores a version as a new step, the later steps kept', async () => {
    const a = (await saveStep(dir, 'Create')).step!;
    write('capsules/orchestrator.yaml', ORCH_ALLOWED);
    await saveStep(dir, 'Allow');
    const step = await restoreVersion(dir, a.short);
    expect(step.message).toBe(`Restore version ${a.short}`);
    expect(readFileSync(join(dir, 'capsules/orchestrator.yaml'), 'utf8')).toBe(ORCH);
    expect((await listSteps(dir)).map((s) => s.message)).toEqual([`Restore version ${a.short}`, 'Allow', 'Create']);
  });

  it('refuses versions that are not there, in words', async () => {
    await expect(compareVersions(dir, 'abcd')).rejects.toThrow(/has no history yet/);
    await saveStep(dir, 'Create');
    await expect(compareVersions(dir, 'abcdef0')).rejects.toThrow(/No version abcdef0/);
    await expect(restoreVersion(dir, 'main; rm -rf')).rejects.toThrow(/is not a version/);
  });

  it('keeps a workspace inside a bigger repository under its folder', async () => {
    const outer = mkdtempSync(join(tmpdir(), 'capsule-outer-'));
    try {
      await git.init({ fs, dir: outer });
      const inner = join(outer, 'agents');
      mkdirSync(join(inner, 'capsules'), { recursive: true });
      writeFileSync(join(inner, 'formation.yaml'), FORMATION);
      writeFileSync(join(inner, 'capsules/orchestrator.yaml'), ORCH);
      writeFileSync(join(inner, 'capsules/worker.yaml'), WORKER);
      const { created, step } = await saveStep(inner, 'Create');
      expect(created).toBe(false);
      expect(step?.capsules).toEqual(['orchestrator', 'worker']);
      expect((await git.listFiles({ fs, dir: outer, ref: 'HEAD' })).sort()).toEqual([
        'agents/capsules/orchestrator.yaml',
        'agents/capsules/worker.yaml',
        'agents/formation.yaml',
      ]);
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });
});
