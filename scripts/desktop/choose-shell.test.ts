import { existsSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseShell, type ShellChoiceDeps } from './choose-shell';
import { electronBinary } from './electron-package';
import { fakeElectronPackage, installFakeBinary, refusedUrl, startMirror, type FakeMirror } from './fake-electron';
import { fetchElectron } from './fetch-electron';

const sqliteOk = async () => ({ ok: true as const, file: '/x/better_sqlite3.node', built: false });

function deps(over: Partial<ShellChoiceDeps>): ShellChoiceDeps & { lines: string[] } {
  const lines: string[] = [];
  return {
    args: [],
    env: {},
    binary: () => undefined,
    fetchElectron: async () => ({ ok: false, reason: 'not wired' }),
    ensureSqlite: sqliteOk,
    say: (l) => lines.push(l),
    lines,
    ...over,
  };
}

describe('the start decision', () => {
  it('--web chooses the web shell without looking for Electron', async () => {
    const fetch = vi.fn();
    const d = deps({ args: ['--web', '--workspace', '/w'], binary: () => '/bin/electron', fetchElectron: fetch });
    expect(await chooseShell(d)).toEqual({ shell: 'web', args: ['--workspace', '/w'] });
    expect(fetch).not.toHaveBeenCalled();
    expect(d.lines).toEqual([]);
  });

  it('does not download when ELECTRON_SKIP_BINARY_DOWNLOAD is set (CI), and says so', async () => {
    const fetch = vi.fn();
    const d = deps({ env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, fetchElectron: fetch });
    expect(await chooseShell(d)).toMatchObject({ shell: 'web', why: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' });
    expect(fetch).not.toHaveBeenCalled();
    expect(d.lines).toHaveLength(1);
  });

  it('runs the desktop when better-sqlite3 for Electron fails, saying so once', async () => {
    const d = deps({ binary: () => '/bin/electron', ensureSqlite: async () => ({ ok: false, reason: 'no compiler' }) });
    expect(await chooseShell(d)).toEqual({ shell: 'electron', binary: '/bin/electron', args: [] });
    expect(d.lines).toHaveLength(1);
    expect(d.lines[0]).toMatch(/no compiler.*reads traces from the files.*npm run desktop:install/);
  });
});

// The real installer (a copy of node_modules/electron) against a loopback mirror.
describe('the start decision with a fake Electron dist', () => {
  let mirror: FakeMirror | undefined;
  let home: string | undefined;
  afterEach(async () => {
    await mirror?.close();
    mirror = undefined;
    if (home) rmSync(home, { recursive: true, force: true });
  });

  function withFake(mirrorUrl: string, stallMs = 10_000) {
    const fake = fakeElectronPackage();
    home = fake.home;
    const env = { ...fake.env, ELECTRON_MIRROR: mirrorUrl };
    return {
      pkg: fake.pkg,
      d: deps({
        env,
        binary: () => electronBinary(fake.pkg, env),
        fetchElectron: () => fetchElectron({ pkg: fake.pkg, env, stallMs }),
      }),
    };
  }

  it('present: launches the desktop without downloading', async () => {
    mirror = await startMirror('45.5.0', 'serve');
    const { pkg, d } = withFake(mirror.url);
    const binary = installFakeBinary(pkg);
    expect(await chooseShell(d)).toEqual({ shell: 'electron', binary, args: [] });
    expect(mirror.requests).toEqual([]);
  });

  it('absent and fetchable: downloads it with Electron’s installer, then launches the desktop', async () => {
    const { pkg, d } = withFake('');
    mirror = await startMirror(pkg.version, 'serve');
    d.env.ELECTRON_MIRROR = mirror.url;
    const choice = await chooseShell(d);
    expect(choice).toMatchObject({ shell: 'electron' });
    expect(choice.shell === 'electron' && existsSync(choice.binary)).toBe(true);
    expect(mirror.requests.some((r) => r.endsWith(`-${process.platform}-${process.arch}.zip`))).toBe(true);
    expect(d.lines).toEqual([]);
  });

  it('absent and the mirror has no such file: the web shell, naming the HTTP status and the retry', async () => {
    const { pkg, d } = withFake('');
    mirror = await startMirror(pkg.version, 'missing');
    d.env.ELECTRON_MIRROR = mirror.url;
    expect(await chooseShell(d)).toMatchObject({ shell: 'web' });
    expect(d.lines).toHaveLength(1);
    expect(d.lines[0]).toMatch(/answered HTTP 404.*npm run desktop:install/);
  });

  it('absent and the mirror refuses the connection: the web shell, saying so', async () => {
    const { d } = withFake(await refusedUrl());
    const choice = await chooseShell(d);
    expect(choice).toMatchObject({ shell: 'web' });
    expect(choice.shell === 'web' && choice.why).toMatch(/127\.0\.0\.1:\d+ refused the connection/);
  });

  it('absent and the download stalls: gives up after the stall bound and opens the web shell', async () => {
    const { pkg, d } = withFake('', 1_500);
    mirror = await startMirror(pkg.version, 'stall');
    d.env.ELECTRON_MIRROR = mirror.url;
    const choice = await chooseShell(d);
    expect(choice).toMatchObject({ shell: 'web' });
    expect(choice.shell === 'web' && choice.why).toMatch(/stalled \(no data for 2 s\)/);
    expect(electronBinary(pkg, d.env)).toBeUndefined();
  });
});
