// Test support: which synchronous file system calls a piece of code makes on the thread that runs
// it (docs/performance.md, main thread: nothing at run time reads or writes a file of unbounded
// size synchronously). A test file mocks node:fs with `watchedFs`, turns the watch on around the
// code under test and reads what was called:
//
//   const watch = vi.hoisted(() => ({ on: false, calls: [] as SyncCall[] }));
//   vi.mock('node:fs', async (original) =>
//     (await import('../sync-fs.fixture')).watchedFs(await original(), watch));

/** The synchronous calls that move a file's bytes or wait on the disk. */
export const SYNC_FS_CALLS = [
  'readSync',
  'writeSync',
  'readFileSync',
  'writeFileSync',
  'appendFileSync',
  'openSync',
  'fsyncSync',
  'renameSync',
  'readdirSync',
  'existsSync',
  'statSync',
  'fstatSync',
  'mkdirSync',
  'rmSync',
  'copyFileSync',
] as const;

export interface SyncCall {
  fn: string;
  /** The file the call named, when it named one by path. */
  path?: string;
}

export interface SyncWatch {
  on: boolean;
  calls: SyncCall[];
}

/** node:fs with each of SYNC_FS_CALLS noting itself in `watch.calls` while `watch.on`. */
export function watchedFs<T extends object>(fs: T, watch: SyncWatch): T {
  const wrapped: Record<string, unknown> = {};
  const mod = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const fn of SYNC_FS_CALLS) {
    const original = mod[fn];
    if (typeof original !== 'function') continue;
    wrapped[fn] = function (this: unknown, ...args: unknown[]) {
      if (watch.on) watch.calls.push(typeof args[0] === 'string' ? { fn, path: args[0] } : { fn });
      return original.apply(this, args);
    };
  }
  // graceful-fs (under the history's git library) asks fs for a field it sets on a copy of its own.
  const extra = { _original_unwrapped_fs: undefined };
  const base = (fs as { default?: object }).default ?? fs;
  return { ...fs, ...extra, ...wrapped, default: { ...base, ...wrapped } } as T;
}

/** Runs `work` with the watch on; the calls it made (awaited work included). */
export async function syncCallsOf(watch: SyncWatch, work: () => unknown): Promise<SyncCall[]> {
  watch.calls = [];
  watch.on = true;
  try {
    await work();
  } finally {
    watch.on = false;
  }
  return watch.calls;
}
