import { join } from 'node:path';
import { ELECTRON_SQLITE_DIR, ensureElectronSqlite, type NativeResult } from './electron-sqlite';
import { electronBinary, findElectronPackage } from './electron-package';
import { fetchElectron, type FetchResult } from './fetch-electron';
import { attemptOnceADay } from './remembered-failure';

/** A failed Electron download, so npm start tries it at most once a day (desktop:install: always). */
export const ELECTRON_FETCH_FAILED = join(ELECTRON_SQLITE_DIR, 'electron-download.failed.json');

// The real steps behind npm start and npm run desktop:install, with progress on the terminal.

export function desktopSteps(root: string, env: NodeJS.ProcessEnv = process.env, opts: { retry?: boolean } = {}) {
  const pkg = findElectronPackage(root);
  return {
    binary: () => (pkg ? electronBinary(pkg, env) : undefined),
    async fetchElectron(): Promise<FetchResult> {
      if (!pkg) return { ok: false, reason: 'the electron package is not installed (run npm install)' };
      const stamp = { electron: pkg.version, platform: process.platform, arch: process.arch };
      return attemptOnceADay({ file: join(root, ELECTRON_FETCH_FAILED), stamp, retry: opts.retry }, async () => {
        process.stderr.write(`Downloading Electron ${pkg.version} (once; it is cached for later installs)…\n`);
        const result = await fetchElectron({ pkg, env, onProgress: progressLine() });
        endProgress();
        return result;
      });
    },
    async ensureSqlite(): Promise<NativeResult> {
      if (!pkg) return { ok: false, reason: 'the electron package is not installed' };
      return ensureElectronSqlite({
        root,
        electronVersion: pkg.version,
        retry: opts.retry,
        onBuild: () => process.stderr.write(`Getting better-sqlite3 for Electron ${pkg.version} (once)…\n`),
      });
    },
  };
}

let drawn = false;
function progressLine(): (bytes: number) => void {
  let lastMb = -10;
  return (bytes) => {
    const mb = bytes / 1e6;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r  ${mb.toFixed(1)} MB received`);
      drawn = true;
    } else if (mb - lastMb >= 10) {
      lastMb = mb;
      process.stderr.write(`  ${mb.toFixed(0)} MB received\n`);
    }
  };
}

function endProgress(): void {
  if (drawn) process.stderr.write('\n');
  drawn = false;
}
