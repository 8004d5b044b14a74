import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureElectronSqlite, type Run } from './electron-sqlite';

// A checkout with a fake better-sqlite3 (its Node build in build/Release) and @electron/rebuild
// replaced by a runner that writes what a rebuild would, into the folder it was pointed at.

let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

function checkout(): string {
  root = mkdtempSync(join(tmpdir(), 'electron-sqlite-'));
  const pkg = join(root, 'node_modules', 'better-sqlite3');
  mkdirSync(join(pkg, 'build', 'Release'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
  writeFileSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'), 'node abi');
  return root;
}

const rebuilds =
  (calls: string[][]): Run =>
  async (_cmd, args) => {
    calls.push(args);
    const moduleDir = args[args.indexOf('--module-dir') + 1];
    const out = join(moduleDir, 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'better_sqlite3.node'), `electron abi ${args[args.indexOf('--version') + 1]}`);
    return { code: 0, output: '' };
  };

describe('better-sqlite3 for Electron', () => {
  it('is built in a copy and lands in resources/native/electron, leaving the Node build alone', async () => {
    const dir = checkout();
    const calls: string[][] = [];
    const result = await ensureElectronSqlite({ root: dir, electronVersion: '45.5.0', run: rebuilds(calls) });
    expect(result).toEqual({
      ok: true,
      file: join(dir, 'resources', 'native', 'electron', 'better_sqlite3.node'),
      built: true,
    });
    expect(readFileSync(join(dir, 'resources', 'native', 'electron', 'better_sqlite3.node'), 'utf8')).toBe(
      'electron abi 45.5.0',
    );
    expect(
      readFileSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), 'utf8'),
    ).toBe('node abi');
    expect(calls[0]).toEqual(expect.arrayContaining(['--only', 'better-sqlite3', '--version', '45.5.0']));
    expect(calls[0][calls[0].indexOf('--module-dir') + 1]).not.toContain(dir);
  });

  it('is not built again for the same Electron, and is for another one', async () => {
    const dir = checkout();
    const calls: string[][] = [];
    await ensureElectronSqlite({ root: dir, electronVersion: '45.5.0', run: rebuilds(calls) });
    expect(await ensureElectronSqlite({ root: dir, electronVersion: '45.5.0', run: rebuilds(calls) })).toMatchObject({
      ok: true,
      built: false,
    });
    expect(calls).toHaveLength(1);
    expect(await ensureElectronSqlite({ root: dir, electronVersion: '46.0.0', run: rebuilds(calls) })).toMatchObject({
      ok: true,
      built: true,
    });
    expect(calls).toHaveLength(2);
  });

  it('a failed rebuild is reported in one line and leaves no binary', async () => {
    const dir = checkout();
    const fail: Run = async () => ({
      code: 1,
      output:
        'prebuild-install warn install No prebuilt binaries found\n    at foo\ngyp ERR! stack Error: not found: make\n',
    });
    const result = await ensureElectronSqlite({ root: dir, electronVersion: '45.5.0', run: fail });
    expect(result).toEqual({ ok: false, reason: 'gyp ERR! stack Error: not found: make' });
    expect(existsSync(join(dir, 'resources', 'native', 'electron', 'better_sqlite3.node'))).toBe(false);
  });

  it('a failure is remembered for a day (npm start does not retry it each time); an explicit retry builds', async () => {
    const dir = checkout();
    let now = 1_000_000;
    const calls: string[][] = [];
    const fail: Run = async (_c, args) => (calls.push(args), { code: 1, output: 'gyp ERR! network connectivity' });
    await ensureElectronSqlite({ root: dir, electronVersion: '45.5.0', run: fail, now: () => now });
    now += 3600_000;
    expect(await ensureElectronSqlite({ root: dir, electronVersion: '45.5.0', run: fail, now: () => now })).toEqual({
      ok: false,
      reason: "no network: neither a prebuilt binary nor Electron's headers could be downloaded; tried 60 min ago",
    });
    expect(calls).toHaveLength(1);
    expect(
      await ensureElectronSqlite({
        root: dir,
        electronVersion: '45.5.0',
        run: rebuilds(calls),
        retry: true,
        now: () => now,
      }),
    ).toMatchObject({ ok: true, built: true });
    now += 25 * 3600_000;
    await ensureElectronSqlite({ root: dir, electronVersion: '46.0.0', run: fail, now: () => now });
    expect(calls).toHaveLength(3);
  });
});
