import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CoreError } from '../../src-shared/contract';
import { describeFsError, MAX_SOURCE_BYTES, readSourceFile } from '../manifest';

// Reading and writing workspace files with messages a user can act on.

/** Writes through a temporary file and a rename, so a reader never sees half a manifest. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (err) {
    throw new CoreError('io_error', `Cannot write ${file}: ${describeFsError(err)}`);
  }
}


/** Reads a text file, or says why not. */
export function readText(file: string): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: readSourceFile(file) };
  } catch (err) {
    return { ok: false, message: `cannot read ${basename(file)}: ${describeFsError(err)}` };
  }
}

/**
 * A manifest or formation file is only written when it can be read back: reading refuses files
 * over MAX_SOURCE_BYTES, so saving a bigger one would leave a file the workspace then rejects.
 */
export function checkSourceSize(what: string, text: string): void {
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_SOURCE_BYTES) return;
  const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  throw new CoreError('invalid_input', `${what} would be ${mib(bytes)}; a manifest or formation file may be at most ${mib(MAX_SOURCE_BYTES)}, so it was not saved.`);
}

export function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export { existsSync };
