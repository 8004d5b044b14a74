import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readPublished, readWorkingVersion, saveStep } from '.';
import { keptPaths } from './snapshot';
import { findRepo } from './repo';

// The files a version keeps, read from disk by the Studio's commands at run time (save, diff,
// restore, the gateway's published version): read off the main thread, whatever their size.

const FORMATION = `capsules:
  - id: big
    manifest: capsules/big.yaml
    position: { x: 0, y: 0 }
  - id: gone
    manifest: capsules/gone.yaml
    position: { x: 200, y: 0 }
remotes: []
`;
// A manifest of 8 MiB: a long comment, as a user may paste one.
const BIG = `name: big\nversion: 1.0.0\n# ${'x'.repeat(8 * 1024 * 1024)}\n`;

let dir: string;
const write = (rel: string, text: string) => {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-snapshot-'));
  write('formation.yaml', FORMATION);
  write('capsules/big.yaml', BIG);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** How many turns the event loop takes while `work` runs. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = () => {
    turns++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  const value = await work();
  done = true;
  return { value, turns };
}

it('reads the draft off the main thread: a big manifest whole, a missing one empty', async () => {
  const { value, turns } = await turnsDuring(() => readWorkingVersion(dir));
  expect(turns).toBeGreaterThan(0);
  expect(value).toEqual({
    formation: FORMATION,
    capsules: [
      { id: 'big', path: 'capsules/big.yaml', source: BIG },
      { id: 'gone', path: 'capsules/gone.yaml', source: '' },
    ],
  });
  expect(await readWorkingVersion(join(dir, 'none'))).toEqual({ formation: '', capsules: [] });
});

it('keeps the saved tests on disk (yaml files only), and none without a tests folder', async () => {
  await saveStep(dir, 'first');
  const repo = (await findRepo(dir))!;
  expect(await keptPaths(dir, repo, undefined, {})).toEqual([
    'capsules/big.yaml',
    'capsules/gone.yaml',
    'formation.yaml',
    'published.yaml',
  ]);
  write('tests/a.yaml', 'a');
  write('tests/b.yml', 'b');
  write('tests/notes.txt', 'c');
  expect(await keptPaths(dir, repo, undefined, {})).toContain('tests/b.yml');
  expect((await keptPaths(dir, repo, undefined, {})).filter((p) => p.startsWith('tests/'))).toEqual([
    'tests/a.yaml',
    'tests/b.yml',
  ]);
});

it('reads published.yaml off the main thread, null when absent or not a record', async () => {
  expect(await readPublished(dir)).toBeNull();
  write('published.yaml', 'version: [not, a, record');
  expect(await readPublished(dir)).toBeNull();
  const version = 'a'.repeat(40);
  write('published.yaml', `version: ${version}\npublished_at: "2026-12-01T10:00:00.000Z"\n`);
  const { value, turns } = await turnsDuring(() => readPublished(dir));
  expect(turns).toBeGreaterThan(0);
  expect(value).toEqual({ version, short: 'aaaaaaa', publishedAt: '2026-12-01T10:00:00.000Z' });
});
