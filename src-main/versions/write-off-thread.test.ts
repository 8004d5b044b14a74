import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { syncCallsOf, type SyncCall } from '../sync-fs.fixture';
import { restoreVersion, saveStep } from '.';
import { materialize } from './publish';
import { findRepo } from './repo';
import { resolveVersion } from './history';

// Restoring a version and writing one out as a folder (publish, the gateway's published version)
// write its manifests off the main thread: no synchronous write names a file of the workspace or
// of the folder, and the files are what the version holds.

const watch = vi.hoisted(() => ({ on: false, calls: [] as SyncCall[] }));
vi.mock('node:fs', async (original) => (await import('../sync-fs.fixture')).watchedFs(await original(), watch));

const WRITES = new Set([
  'writeSync',
  'writeFileSync',
  'appendFileSync',
  'renameSync',
  'mkdirSync',
  'rmSync',
  'openSync',
]);

const FORMATION = `capsules:
  - id: a
    manifest: capsules/a.yaml
    position: { x: 0, y: 0 }
  - id: b
    manifest: nested/deeper/b.yaml
    position: { x: 200, y: 0 }
remotes: []
`;
const A = 'name: a\nversion: 1.0.0\n';
const B = 'name: b\nversion: 1.0.0\n';

let dir: string;
let out: string;
const write = (rel: string, text: string) => {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-versions-write-'));
  out = mkdtempSync(join(tmpdir(), 'capsule-versions-out-'));
  write('formation.yaml', FORMATION);
  write('capsules/a.yaml', A);
  write('nested/deeper/b.yaml', B);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** The synchronous writes `calls` made to files under `roots` (the history's own files aside). */
const writesUnder = (calls: SyncCall[], ...roots: string[]) =>
  calls.filter(
    (c) => WRITES.has(c.fn) && c.path && roots.some((r) => c.path!.startsWith(r)) && !c.path.includes('/.git'),
  );

it('restores a version off the main thread', async () => {
  await saveStep(dir, 'first');
  const repo = (await findRepo(dir))!;
  const first = await resolveVersion(repo, 'HEAD');
  write('capsules/a.yaml', 'name: a\nversion: 2.0.0\n');
  rmSync(join(dir, 'nested'), { recursive: true });
  await saveStep(dir, 'second');
  const calls = await syncCallsOf(watch, () => restoreVersion(dir, first));
  expect(writesUnder(calls, dir)).toEqual([]);
  expect(readFileSync(join(dir, 'capsules/a.yaml'), 'utf8')).toBe(A);
  expect(readFileSync(join(dir, 'nested/deeper/b.yaml'), 'utf8')).toBe(B);
  expect(readFileSync(join(dir, 'formation.yaml'), 'utf8')).toBe(FORMATION);
});

it('writes a version out as a folder off the main thread', async () => {
  await saveStep(dir, 'first');
  const repo = (await findRepo(dir))!;
  const oid = await resolveVersion(repo, 'HEAD');
  const target = join(out, 'v1');
  const calls = await syncCallsOf(watch, () => materialize(repo, oid, target));
  expect(writesUnder(calls, out)).toEqual([]);
  expect(readFileSync(join(target, 'capsules/a.yaml'), 'utf8')).toBe(A);
  expect(readFileSync(join(target, 'nested/deeper/b.yaml'), 'utf8')).toBe(B);
  expect(readFileSync(join(target, 'formation.yaml'), 'utf8')).toBe(FORMATION);
});
