import { closeSync, fchmodSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// Writing a file whole or not at all: the text goes to a temporary file beside the target, which is
// then renamed over it, so a reader (another process, a watcher) never sees half of it. The
// temporary file is created new (never an old one reused) and with the caller's mode from its first
// byte, so a file meant for the user alone (0600: secrets, tokens) is never readable by others, not
// even for a moment. A write that fails removes its temporary file and throws the system's error.

export interface AtomicWriteOptions {
  /** The file's permission bits, e.g. 0o600; omitted, a new file gets the usual 0o666 less the umask. */
  mode?: number;
}

/** How many names a write tries before it gives up (one is taken only by a leftover of a process long gone). */
const NAME_TRIES = 20;

let writes = 0;
/** A write's own temporary file beside its target: two writes of one path never share one, and watchers skip `.tmp`. */
const tempBeside = (file: string) => join(dirname(file), `.${basename(file)}.${process.pid}.${++writes}.tmp`);

const taken = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EEXIST';

/** Writes `data` to `file` through a temporary file and a rename, on this thread. */
export function atomicWriteSync(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  for (let tries = 1; ; tries++) {
    const tmp = tempBeside(file);
    let fd: number;
    try {
      fd = openSync(tmp, 'wx', opts.mode ?? 0o666);
    } catch (err) {
      if (taken(err) && tries < NAME_TRIES) continue;
      throw err;
    }
    try {
      try {
        // The umask may have taken bits from the mode; the file gets exactly the mode asked for.
        if (opts.mode !== undefined) fchmodSync(fd, opts.mode);
        writeFileSync(fd, data);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
      return;
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }
}

/** atomicWriteSync off the main thread, for files written often or many at a time. */
export async function atomicWrite(
  file: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  for (let tries = 1; ; tries++) {
    const tmp = tempBeside(file);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(tmp, 'wx', opts.mode ?? 0o666);
    } catch (err) {
      if (taken(err) && tries < NAME_TRIES) continue;
      throw err;
    }
    try {
      try {
        if (opts.mode !== undefined) await handle.chmod(opts.mode);
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
      return;
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
  }
}
