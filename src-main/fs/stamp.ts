import { statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';

// A file's stamp tells one version of it from another without reading it: its modification time,
// size and inode. An atomic write (a rename into place) always gives a new inode, so even two
// writes within one tick of the clock differ. Readers that ask on every call (the gateway) read
// and parse a file again only when its stamp changed: a call costs one stat.

/** The stamp of a file that is not there. */
export const NO_FILE = 'none';

const stampOfStat = (s: Pick<Stats, 'mtimeMs' | 'size' | 'ino'>) => `${s.mtimeMs}:${s.size}:${s.ino}`;

/** The file's stamp now, on this thread; NO_FILE when it cannot be had. */
export function fileStampSync(file: string): string {
  try {
    return stampOfStat(statSync(file));
  } catch {
    return NO_FILE;
  }
}

/** The file's stamp now, off the main thread; NO_FILE when it cannot be had. */
export async function fileStamp(file: string): Promise<string> {
  return stat(file).then(stampOfStat, () => NO_FILE);
}

/** How many files one reader keeps the parse of (the least recently read go first). */
const MAX_FILES = 64;

/**
 * Reads a file through `parse`, off the main thread, again only when its stamp changed. `absent` is
 * what a file that is not there (or does not read) gives; it is never kept, so the file's
 * appearance is seen at the next call.
 */
export function stampedReader<T>(parse: (text: string) => T, absent: T): (file: string) => Promise<T> {
  const held = new Map<string, { stamp: string; value: T }>();
  return async (file) => {
    const stamp = await fileStamp(file);
    const had = held.get(file);
    held.delete(file);
    if (stamp === NO_FILE) return absent;
    if (had?.stamp === stamp) {
      held.set(file, had);
      return had.value;
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return absent;
    }
    const value = parse(text);
    held.set(file, { stamp, value });
    for (const old of held.keys()) {
      if (held.size <= MAX_FILES) break;
      held.delete(old);
    }
    return value;
  };
}
