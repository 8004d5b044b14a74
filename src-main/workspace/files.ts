import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { CoreError } from '../../src-shared/contract';
import { atomicWrite, atomicWriteSync } from '../fs';
import { describeFsError, readSourceFile, sourceSizeProblem } from '../manifest';

// Reading and writing workspace files with messages a user can act on.

const cannotWrite = (file: string, err: unknown) =>
  new CoreError('io_error', `Cannot write ${file}: ${describeFsError(err)}`);

/** Writes through a temporary file and a rename (src-main/fs), so a reader never sees half a manifest. */
export function writeFileAtomic(file: string, text: string): void {
  try {
    atomicWriteSync(file, text);
  } catch (err) {
    throw cannotWrite(file, err);
  }
}

/** writeFileAtomic off the main thread, for files a caller writes many of (a version's manifests). */
export async function writeFileAtomicAsync(file: string, text: string): Promise<void> {
  await atomicWrite(file, text).catch((err: unknown) => {
    throw cannotWrite(file, err);
  });
}

/** Reads a text file, or says why not. */
export function readText(file: string): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: readSourceFile(file) };
  } catch (err) {
    return { ok: false, message: `cannot read ${basename(file)}: ${describeFsError(err)}` };
  }
}

/** A manifest or formation file is only saved when the workspace can read it back. */
export function checkSourceSize(what: string, text: string): void {
  const problem = sourceSizeProblem(text);
  if (problem) throw new CoreError('invalid_input', `${what} ${problem}.`);
}

export function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where a path really lands: symbolic links resolved as far as the path exists (a dangling link
 * followed to where it points), the rest as written. A write to a path that does not exist yet
 * lands there too, so checks on reads and writes both look at this, never at the path as typed.
 */
export function realPathOf(path: string): string {
  let cur = resolve(path);
  const rest: string[] = [];
  // Links followed are bounded like the kernel's own limit on one lookup, so a loop of links ends.
  let links = 0;
  for (;;) {
    try {
      return join(realpathSync.native(cur), ...rest);
    } catch {
      const link = lstatSync(cur, { throwIfNoEntry: false });
      if (link?.isSymbolicLink()) {
        if (++links > 40) throw new CoreError('invalid_input', `${path} goes through a loop of symbolic links.`);
        cur = resolve(dirname(cur), readlinkSync(cur));
        continue;
      }
      const parent = dirname(cur);
      if (parent === cur) return join(cur, ...rest);
      rest.unshift(basename(cur));
      cur = parent;
    }
  }
}

/** True when `path` really lands in `root` (itself or below it), symbolic links resolved on both. */
export function landsInside(root: string, path: string): boolean {
  const base = realPathOf(root);
  const real = realPathOf(path);
  return real === base || real.startsWith(base.endsWith(sep) ? base : base + sep);
}

export { existsSync };
