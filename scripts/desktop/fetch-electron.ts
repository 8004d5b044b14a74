import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadFailureReason, electronZipUrl } from './download-reason';
import { electronBinary, type ElectronPackage } from './electron-package';

// Fetches Electron's binary with Electron's own installer (node_modules/electron/install.js, which
// honours ELECTRON_MIRROR, proxies and its download cache). The installer has no timeout, so it runs
// in a child process whose temp folder is private: the bytes arriving there are the download's
// progress, and when none arrive for `stallMs` the child is stopped.

export type FetchResult = { ok: true; binary: string } | { ok: false; reason: string };

export interface FetchElectronOptions {
  pkg: ElectronPackage;
  env?: NodeJS.ProcessEnv;
  /** No new bytes for this long: the download has stalled (default 30 s). */
  stallMs?: number;
  /** The whole download may take at most this long (default 15 min, ~110 MB on a slow line). */
  maxMs?: number;
  /** Progress, in bytes received so far. */
  onProgress?: (bytes: number) => void;
}

const POLL_MS = 250;
const OUTPUT_CAP = 16 * 1024;

export function fetchElectron(opts: FetchElectronOptions): Promise<FetchResult> {
  const env = opts.env ?? process.env;
  const stallMs = opts.stallMs ?? 30_000;
  const maxMs = opts.maxMs ?? 15 * 60_000;
  const temp = mkdtempSync(join(tmpdir(), 'capsule-electron-fetch-'));
  const child = spawn(process.execPath, [join(opts.pkg.dir, 'install.js')], {
    cwd: opts.pkg.dir,
    env: { ...env, TMPDIR: temp, TMP: temp, TEMP: temp, ELECTRON_GET_NO_PROGRESS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    if (output.length < OUTPUT_CAP) output += chunk.toString('utf8').slice(0, OUTPUT_CAP - output.length);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  return new Promise<FetchResult>((resolve) => {
    const started = Date.now();
    let bytes = 0;
    let activity = 0;
    let grewAt = started;
    let stopped: string | undefined;
    const timer = setInterval(() => {
      const now = Date.now();
      // Unpacking into dist/ after the download counts as progress too.
      const size = folderBytes(temp);
      const total = size + folderBytes(join(opts.pkg.dir, 'dist'));
      if (total !== activity) {
        activity = total;
        grewAt = now;
      }
      if (size > bytes) {
        bytes = size;
        opts.onProgress?.(bytes);
      }
      if (now - grewAt > stallMs) stop(`the download stalled (no data for ${Math.round(stallMs / 1000)} s)`);
      else if (now - started > maxMs) stop(`the download took longer than ${Math.round(maxMs / 60_000)} min`);
    }, POLL_MS);
    const stop = (why: string) => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGKILL');
    };
    child.on('error', (err) => stop(`the installer could not start: ${err.message}`));
    child.on('close', async (code) => {
      clearInterval(timer);
      rmSync(temp, { recursive: true, force: true });
      const binary = electronBinary(opts.pkg, env);
      if (!stopped && code === 0 && binary) return resolve({ ok: true, binary });
      const reason =
        stopped ??
        (code === 0
          ? 'the installer finished but left no binary'
          : await downloadFailureReason(electronZipUrl(opts.pkg.version, env), output));
      resolve({ ok: false, reason });
    });
  });
}

/** Bytes in a small folder tree (the installer's temp folder holds one or two files). */
function folderBytes(dir: string): number {
  let total = 0;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
    }
  } catch {
    // Files come and go as the installer moves the zip into its cache.
  }
  return total;
}
