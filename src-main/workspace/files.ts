import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CoreError } from '../../src-shared/contract';
import { readSourceFile } from '../manifest';

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

export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'ENOTDIR') return 'a parent is not a folder';
  return (err as Error)?.message ?? String(err);
}

/** Reads a text file, or says why not. */
export function readText(file: string): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: readSourceFile(file) };
  } catch (err) {
    return { ok: false, message: `cannot read ${basename(file)}: ${describeFsError(err)}` };
  }
}

export function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export { existsSync };
