import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, buildNeeded } from './build-fresh';

describe('npm start skips the build when out/ is up to date', () => {
  let root: string | undefined;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));

  function file(rel: string, atSeconds: number) {
    const p = join(root!, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, rel);
    utimesSync(p, atSeconds, atSeconds);
    // Creating the file changed its folders; they count as old as it.
    for (let d = dirname(p); d !== root; d = dirname(d)) utimesSync(d, atSeconds, atSeconds);
  }

  it('builds when an output is missing or a source is newer; skips otherwise', () => {
    root = mkdtempSync(join(tmpdir(), 'fresh-'));
    file('src-renderer/app/App.tsx', 1000);
    file('package.json', 1000);
    expect(buildNeeded(root)).toBe('out/main/index.js is missing');
    for (const out of BUILD_OUTPUTS) file(out, 2000);
    expect(buildNeeded(root)).toBeUndefined();
    file('src-renderer/app/App.test.tsx', 3000); // tests are not built
    utimesSync(join(root, 'src-renderer/app'), 1000, 1000);
    utimesSync(join(root, 'src-renderer'), 1000, 1000);
    expect(buildNeeded(root)).toBeUndefined();
    file('src-renderer/app/App.tsx', 3000);
    expect(buildNeeded(root)).toBe('src-renderer/app/App.tsx changed since the last build');
  });

  it('a deleted source (its folder changed) and a newer build config count too', () => {
    root = mkdtempSync(join(tmpdir(), 'fresh-'));
    file('src-main/core.ts', 1000);
    for (const out of BUILD_OUTPUTS) file(out, 2000);
    utimesSync(join(root, 'src-main'), 3000, 3000);
    expect(buildNeeded(root)).toBe('src-main changed since the last build');
    utimesSync(join(root, 'src-main'), 1000, 1000);
    file('electron.vite.config.ts', 3000);
    expect(buildNeeded(root)).toBe('electron.vite.config.ts changed since the last build');
  });
});
