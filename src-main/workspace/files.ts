import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CoreError } from '../../src-shared/contract';
import { describeFsError, readSourceFile, sourceSizeProblem } from '../manifest';

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

export { existsSync };
