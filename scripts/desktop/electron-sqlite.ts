import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { forgetFailure, recentFailure, rememberFailure } from './remembered-failure';

// better-sqlite3 built for Electron's ABI, in its own folder (resources/native/electron/), loaded
// by the desktop through better-sqlite3's `nativeBinding` option. The build in node_modules stays
// the Node one (tests, CLI, web shell): the Electron build is made in a temporary copy of the
// package by @electron/rebuild, which takes the prebuilt binary for Electron when one is published
// and otherwise compiles against Electron's headers.

export const ELECTRON_SQLITE_DIR = join('resources', 'native', 'electron');
const BINARY = 'better_sqlite3.node';
const STAMP = 'better_sqlite3.json';
/** A failed attempt, remembered so npm start does not spend seconds on it again every time. */
const FAILED = 'better_sqlite3.failed.json';

export type Stamp = {
  electron: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
};

export type Run = (command: string, args: string[], cwd: string) => Promise<{ code: number; output: string }>;
export type NativeResult = { ok: true; file: string; built: boolean } | { ok: false; reason: string };

export interface ElectronSqliteOptions {
  /** The checkout (package.json, node_modules, resources). */
  root: string;
  electronVersion: string;
  platform?: string;
  arch?: string;
  /** Runs @electron/rebuild (injected by tests). */
  run?: Run;
  /** Called once when a build is needed (it can take minutes when it compiles). */
  onBuild?: () => void;
  /** Try again even if the same build failed within the last day (npm run desktop:install). */
  retry?: boolean;
  now?: () => number;
}

export async function ensureElectronSqlite(opts: ElectronSqliteOptions): Promise<NativeResult> {
  const dir = join(opts.root, ELECTRON_SQLITE_DIR);
  const file = join(dir, BINARY);
  const pkgDir = join(opts.root, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(pkgDir, 'package.json')))
    return { ok: false, reason: 'better-sqlite3 is not installed (run npm install)' };
  const want: Stamp = {
    electron: opts.electronVersion,
    betterSqlite3: (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version,
    platform: opts.platform ?? process.platform,
    arch: opts.arch ?? process.arch,
  };
  if (existsSync(file) && sameStamp(join(dir, STAMP), want)) return { ok: true, file, built: false };
  const now = opts.now ?? Date.now;
  const recent = opts.retry ? undefined : recentFailure(join(dir, FAILED), want, now());
  if (recent) return { ok: false, reason: recent };

  opts.onBuild?.();
  const remember = (reason: string): NativeResult => {
    rememberFailure(join(dir, FAILED), want, now(), reason);
    return { ok: false, reason };
  };
  const work = mkdtempSync(join(tmpdir(), 'capsule-electron-sqlite-'));
  try {
    // A package.json naming the module, so @electron/rebuild finds it as a dependency.
    writeFileSync(
      join(work, 'package.json'),
      JSON.stringify({
        name: 'electron-sqlite',
        private: true,
        dependencies: { 'better-sqlite3': want.betterSqlite3 },
      }),
    );
    const copy = join(work, 'node_modules', 'better-sqlite3');
    // Everything but the Node build (build/), so the copy is rebuilt rather than reused.
    cpSync(pkgDir, copy, {
      recursive: true,
      filter: (src) => src !== join(pkgDir, 'build') && src !== join(pkgDir, 'node_modules'),
    });
    const cli = join(dirname(require.resolve('@electron/rebuild', { paths: [opts.root, __dirname] })), 'cli.js');
    const args = [
      cli,
      '--version',
      want.electron,
      '--arch',
      want.arch,
      '--platform',
      want.platform,
      '--module-dir',
      work,
      '--only',
      'better-sqlite3',
      '--force',
    ];
    const { code, output } = await (opts.run ?? runNode)(process.execPath, args, work);
    const built = join(copy, 'build', 'Release', BINARY);
    if (code !== 0 || !existsSync(built)) return remember(lastLine(output) || `@electron/rebuild exited with ${code}`);
    mkdirSync(dir, { recursive: true });
    copyFileSync(built, file);
    writeFileSync(join(dir, STAMP), JSON.stringify(want, null, 2) + '\n');
    forgetFailure(join(dir, FAILED));
    return { ok: true, file, built: true };
  } catch (err) {
    return remember((err as Error).message.split('\n')[0]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function sameStamp(path: string, want: Stamp): boolean {
  try {
    const have = JSON.parse(readFileSync(path, 'utf8')) as Stamp;
    return (
      have.electron === want.electron &&
      have.betterSqlite3 === want.betterSqlite3 &&
      have.platform === want.platform &&
      have.arch === want.arch
    );
  } catch {
    return false;
  }
}

function lastLine(output: string): string {
  if (/network connectivity|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(output))
    return "no network: neither a prebuilt binary nor Electron's headers could be downloaded";
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^at /.test(l));
  return (lines.findLast((l) => /error|fail/i.test(l)) ?? lines.at(-1) ?? '').slice(0, 200);
}

const OUTPUT_CAP = 64 * 1024;
const REBUILD_MAX_MS = 10 * 60_000;

function runNode(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (c: Buffer) => {
      output = (output + c.toString('utf8')).slice(-OUTPUT_CAP);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // A compile from source takes minutes on two cores; past this bound it is not coming.
    const timer = setTimeout(() => child.kill('SIGKILL'), REBUILD_MAX_MS);
    child.on('error', (err) => {
      keep(Buffer.from(err.message));
      resolve({ code: 1, output });
    });
    // 'exit', not 'close': node-gyp's helpers can hold the pipes open after the rebuild has ended.
    child.on('exit', (code) => {
      clearTimeout(timer);
      setTimeout(() => resolve({ code: code ?? 1, output }), 200);
    });
  });
}
