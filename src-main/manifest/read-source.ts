import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

// Manifests and formation files are read whole into memory and parsed as YAML, so what a path
// points at is checked first: a pipe would wait for a writer for ever, a device such as
// /dev/zero never ends, and a file of many megabytes costs seconds of parsing. Only a regular
// file of at most MAX_SOURCE_BYTES is read.

/** 1 MiB: far beyond any hand-written manifest (long system prompts included); parsed in well under a second. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export class SourceReadError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SourceReadError';
  }
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * Why text cannot be saved as a manifest or formation file (`would be 1.1 MiB; …`, to follow the
 * file's name), or undefined when it can: over MAX_SOURCE_BYTES as UTF-8 it would be written and
 * then refused by readSourceFile.
 */
export function sourceSizeProblem(text: string, limit = MAX_SOURCE_BYTES): string | undefined {
  const bytes = Buffer.byteLength(text);
  return bytes > limit
    ? `would be ${mib(bytes)}; a manifest or formation file may be at most ${mib(limit)}`
    : undefined;
}

/**
 * The file's text, or a SourceReadError saying why not: not a regular file, over the limit, or
 * the system's own error (its code kept, so callers can word ENOENT and EACCES their way).
 */
export function readSourceFile(file: string, limit = MAX_SOURCE_BYTES): string {
  let fd: number;
  try {
    // Non-blocking, so opening a pipe with no writer returns at once instead of waiting.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new SourceReadError(e.message, e.code);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new SourceReadError('it is a folder, not a file', 'EISDIR');
    if (!stat.isFile())
      throw new SourceReadError(
        'it is not a regular file (a pipe, device or socket); save the YAML to a file and point at that',
        'ENOTFILE',
      );
    if (stat.size > limit)
      throw new SourceReadError(
        `it is ${mib(stat.size)}; a manifest or formation file may be at most ${mib(limit)}`,
        'ETOOBIG',
      );
    // The size can change between fstat and read (a file being written): read at most one byte
    // past the limit, so a file that grew is refused rather than read without bound.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, limit) + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0;)
      length += n;
    if (length > limit)
      throw new SourceReadError(
        `it grew past ${mib(limit)} while being read; a manifest or formation file may be at most ${mib(limit)}`,
        'ETOOBIG',
      );
    return buffer.toString('utf8', 0, length);
  } catch (err) {
    if (err instanceof SourceReadError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new SourceReadError(e.message, e.code);
  } finally {
    closeSync(fd);
  }
}
