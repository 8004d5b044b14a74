import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_LISTING_MAX } from '../../src-shared/contract';
import { listFolders } from './folder-browser';

// The web shell's folder browser stays inside the home: paths are checked where they really land,
// so a symbolic link out of the home is neither listed nor listable.

let base: string;
let home: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'capsule-browse-'));
  home = join(base, 'home');
  outside = join(base, 'outside');
  mkdirSync(join(home, 'formations', 'research'), { recursive: true });
  writeFileSync(join(home, 'formations', 'research', 'formation.yaml'), 'capsules: []\n');
  mkdirSync(join(home, '.config'));
  mkdirSync(join(home, 'Documents'));
  writeFileSync(join(home, 'notes.txt'), 'not a folder');
  mkdirSync(outside);
  symlinkSync(outside, join(home, 'escape'));
  symlinkSync(join(home, 'formations'), join(home, 'shortcut'));
  symlinkSync(join(home, 'missing'), join(home, 'dangling'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const names = (l: { folders: { name: string }[] }) => l.folders.map((f) => f.name);

describe('the folder browser', () => {
  it('lists the home by default: folders only, sorted, hidden ones left out, links shown where they lead', async () => {
    const l = await listFolders({ home });
    expect(l).toMatchObject({ dir: home, home, parent: null, truncated: false });
    expect(names(l)).toEqual(['Documents', 'formations', 'shortcut']);
    expect(l.folders.find((f) => f.name === 'shortcut')?.path).toBe(join(home, 'formations'));
    expect(names(await listFolders({ home, hidden: true }))).toEqual([
      '.config',
      'Documents',
      'formations',
      'shortcut',
    ]);
  });

  it('goes down by path or by a name relative to the home, and marks workspaces', async () => {
    const l = await listFolders({ home, dir: 'formations' });
    expect(l).toMatchObject({ dir: join(home, 'formations'), parent: home });
    expect(l.folders).toEqual([{ name: 'research', path: join(home, 'formations', 'research'), workspace: true }]);
    expect((await listFolders({ home, dir: join(home, 'shortcut') })).dir).toBe(join(home, 'formations'));
  });

  it('refuses a folder outside the home, a symbolic link out of it, and what is not a folder', async () => {
    await expect(listFolders({ home, dir: outside })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listFolders({ home, dir: join(home, 'escape') })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listFolders({ home, dir: join(home, '..') })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listFolders({ home, dir: join(home, 'notes.txt') })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(listFolders({ home, dir: join(home, 'nowhere') })).rejects.toMatchObject({ code: 'not_found' });
    await expect(listFolders({ home, dir: join(home, 'dangling') })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists the open workspace even outside the home, and nothing above it', async () => {
    const l = await listFolders({ home, dir: outside, also: [outside] });
    expect(l).toMatchObject({ dir: outside, parent: null, folders: [] });
    await expect(listFolders({ home, dir: base, also: [outside] })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it(`holds at most ${FOLDER_LISTING_MAX} folders and says the listing is cut`, async () => {
    const many = join(home, 'many');
    for (let i = 0; i < FOLDER_LISTING_MAX + 5; i++) mkdirSync(join(many, `f${i}`), { recursive: true });
    const l = await listFolders({ home, dir: many });
    expect(l.folders).toHaveLength(FOLDER_LISTING_MAX);
    expect(l.truncated).toBe(true);
  });
});
