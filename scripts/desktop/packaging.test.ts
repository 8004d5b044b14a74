import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellPaths } from '../../src-main/shell/electron/paths';
import { ROOT } from './fake-electron';
import {
  asExtraResource,
  builtLoads,
  inApp,
  listFiles,
  readBuilderConfig,
  unpacked,
  type BuilderConfig,
} from './packed-files';

// electron-builder.yml against the built output (electron-vite build, no Electron binary): every
// file the packaged main process and its trace index worker load is packed, where main.ts looks.

let config: BuilderConfig;
beforeAll(() => {
  const built = spawnSync(join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build', '--logLevel', 'error'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`electron-vite build failed: ${built.stderr}`);
  config = readBuilderConfig(ROOT);
}, 120_000);

// The packaged layout: <resources>/app.asar holds the app folder, <resources>/resources the extras.
const R = '/opt/Capsule Studio/resources';
const packaged = shellPaths({ isPackaged: true, resourcesPath: R, mainDir: `${R}/app.asar/out/main` });
const inAsar = (abs: string) => posix.relative(`${R}/app.asar`, abs);

/** A package's main file, or its package.json when it has no root entry (only subpath exports, like the MCP SDK). */
function entryOf(name: string): string {
  try {
    return require.resolve(name, { paths: [ROOT] });
  } catch {
    return realpathSync(join(ROOT, 'node_modules', name, 'package.json'));
  }
}

describe('the desktop package', () => {
  it('carries every file of out/ the main process loads, and the trace index worker outside the asar', () => {
    const loads = builtLoads(ROOT);
    expect(loads.files).toEqual(
      expect.arrayContaining([
        'out/main/index.js',
        'out/main/trace-index-worker.js',
        'out/preload/index.js',
        'out/renderer/index.html',
      ]),
    );
    expect(loads.files.some((f) => f.startsWith('out/renderer/assets/'))).toBe(true);
    expect(loads.files.filter((f) => !inApp(config, f))).toEqual([]);
    // A worker thread cannot load from app.asar: it and the chunks it shares stay unpacked.
    expect(loads.workerFiles.length).toBeGreaterThan(1);
    expect(loads.workerFiles.filter((f) => !unpacked(config, f))).toEqual([]);
  });

  it('carries the packages the bundles require, those of the worker unpacked, and never rebuilds better-sqlite3 in place', () => {
    const deps = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies);
    const { packages } = builtLoads(ROOT);
    expect(packages.map((p) => p.name)).toContain('better-sqlite3');
    for (const { name, byWorker } of packages) {
      expect(deps, `${name} is a production dependency`).toContain(name);
      const rel = posix.join(
        'node_modules',
        name,
        posix.relative(realpathSync(join(ROOT, 'node_modules', name)), entryOf(name)),
      );
      expect(inApp(config, rel), `${rel} is packed`).toBe(true);
      if (byWorker) expect(unpacked(config, rel), `${rel} is unpacked for the worker`).toBe(true);
    }
    for (const f of listFiles(join(ROOT, 'node_modules', 'better-sqlite3', 'lib')))
      expect(unpacked(config, `node_modules/better-sqlite3/lib/${f}`)).toBe(true);
    expect(config.npmRebuild).toBe(false);
  });

  it('puts the renderer, preload and worker where main.ts looks when packaged', () => {
    expect(inAsar(packaged.rendererDir)).toBe('out/renderer');
    expect(inApp(config, `${inAsar(packaged.rendererDir)}/index.html`)).toBe(true);
    expect(inApp(config, inAsar(packaged.preload))).toBe(true);
    expect(packaged.traceWorker).toBe(`${R}/app.asar.unpacked/out/main/trace-index-worker.js`);
    expect(unpacked(config, posix.relative(`${R}/app.asar.unpacked`, packaged.traceWorker))).toBe(true);
  });

  it('carries the example workspace, the icon and the Electron build of better-sqlite3 where main.ts looks', () => {
    const resources = (abs: string) => posix.relative(R, abs);
    expect(asExtraResource(config, 'resources', 'icon.png')).toBe(resources(packaged.icon));
    expect(asExtraResource(config, 'resources', 'native/electron/better_sqlite3.node')).toBe(
      resources(packaged.electronSqlite),
    );
    const example = listFiles(join(ROOT, 'resources', 'example-workspace'));
    expect(example).toContain('formation.yaml');
    for (const f of example)
      expect(asExtraResource(config, 'resources', `example-workspace/${f}`)).toBe(
        posix.join(resources(packaged.resourcesDir), 'example-workspace', f),
      );
    expect(existsSync(join(ROOT, 'resources', 'icon.png'))).toBe(true);
  });

  it('builds AppImage and deb on Linux, dmg on macOS, nsis on Windows, each with an icon of the size it needs', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toBe('dmg');
    expect(config.win.target).toBe('nsis');
    const width = (file: string) => readFileSync(join(ROOT, file)).readUInt32BE(16); // a PNG's IHDR width
    expect(width(config.linux.icon)).toBeGreaterThanOrEqual(256);
    expect(width(config.win.icon)).toBeGreaterThanOrEqual(256);
    expect(width(config.mac.icon)).toBeGreaterThanOrEqual(512);
  });

  it('the production page keeps the CSP written in index.html, and no inline script', () => {
    const meta = (html: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1];
    const built = readFileSync(join(ROOT, 'out', 'renderer', 'index.html'), 'utf8');
    expect(meta(built)).toBeDefined();
    expect(meta(built)).toBe(meta(readFileSync(join(ROOT, 'src-renderer', 'index.html'), 'utf8')));
    expect(built).not.toMatch(/<script\b(?![^>]*\bsrc=)[^>]*>/);
  });
});
