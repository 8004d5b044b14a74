import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { readPublished, writePublished } from './published';
import { PUBLISHED_FILE } from './snapshot';

// The gateway asks for the published version on every call it routes: published.yaml is parsed
// again only when the file changed, so an unchanged file costs one stat.

const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('yaml', async (importOriginal) => {
  const yaml = await importOriginal<typeof import('yaml')>();
  const parse = ((...args: Parameters<typeof yaml.parse>) => {
    parses.count++;
    return yaml.parse(...args);
  }) as typeof yaml.parse;
  return { ...yaml, parse, default: { ...yaml, parse } };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-published-'));
  parses.count = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);
/** Replaces published.yaml as another process would (git, an editor): a new file renamed into place. */
const replace = (version: string) => {
  const tmp = join(dir, 'published.yaml.new');
  writeFileSync(tmp, `version: ${version}\npublished_at: "2026-12-01T10:00:00.000Z"\n`);
  renameSync(tmp, join(dir, PUBLISHED_FILE));
};

it('parses an unchanged published.yaml once, however often it is asked', async () => {
  await writePublished(dir, a, []);
  const before = parses.count;
  for (let i = 0; i < 5; i++) expect((await readPublished(dir))?.version).toBe(a);
  expect(parses.count).toBe(before);
});

it('sees the file changed on disk at the very next call', async () => {
  replace(a);
  expect((await readPublished(dir))?.version).toBe(a);
  replace(b);
  expect((await readPublished(dir))?.version).toBe(b);
  expect(parses.count).toBe(2);
  rmSync(join(dir, PUBLISHED_FILE));
  expect(await readPublished(dir)).toBeNull();
  replace(a);
  expect((await readPublished(dir))?.version).toBe(a);
});

it('sees a publish at once', async () => {
  expect((await writePublished(dir, a, [])).version).toBe(a);
  expect((await writePublished(dir, b, ['tests/x.yaml'])).overridden).toEqual(['tests/x.yaml']);
  expect((await readPublished(dir))?.version).toBe(b);
});
