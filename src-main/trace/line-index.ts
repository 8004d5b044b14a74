import { open, type FileHandle } from 'node:fs/promises';
import type { TraceEvent } from '../../src-shared/trace';

// Trace lines by line index without reading the file from its start: where every STEP-th line
// begins is remembered per file, and only bytes not seen before are scanned. Live views ask for
// "lines from N" and "the last N lines" of files that grow to hundreds of megabytes; a read from
// the start per page would cost the core seconds each time. Trace files only grow; one that
// shrank (replaced) is scanned afresh.
//
// The Studio's main thread belongs to its window: reads are asynchronous, in chunks of CHUNK bytes,
// so scanning a 300 MB file or parsing 10k lines never holds the thread for more than one chunk's
// work (about a millisecond to scan, a few to parse).

const STEP = 1024;
const CHUNK = 512 * 1024;
/** Files remembered at once (the oldest looked-at is forgotten first). */
const MAX_FILES = 256;

interface FileLines {
  /** offsets[k]: byte offset where line k * STEP starts. */
  offsets: number[];
  /** Complete lines (ending in a newline) seen so far. */
  lines: number;
  /** Byte offset just past the last complete line seen. */
  bytes: number;
}

const files = new Map<string, FileLines>();
/** One scan of a file at a time: two would both advance its remembered positions. */
const scanning = new Map<string, Promise<unknown>>();

function serialized<T>(path: string, run: () => Promise<T>): Promise<T> {
  const before = scanning.get(path) ?? Promise.resolve();
  const mine = before.then(run, run);
  const settled = mine.catch(() => undefined);
  scanning.set(path, settled);
  void settled.then(() => {
    if (scanning.get(path) === settled) scanning.delete(path);
  });
  return mine;
}

/** Scans the bytes not seen before, up to `upTo` (default: the file's size now). */
async function scan(fh: FileHandle, path: string, upTo?: number): Promise<FileLines> {
  const size = upTo ?? (await fh.stat()).size;
  let f = files.get(path);
  if (!f || size < f.bytes) f = { offsets: [0], lines: 0, bytes: 0 };
  files.delete(path);
  files.set(path, f);
  if (files.size > MAX_FILES) files.delete(files.keys().next().value!);
  const buf = Buffer.allocUnsafe(CHUNK);
  for (let pos = f.bytes; pos < size; ) {
    const { bytesRead: n } = await fh.read(buf, 0, Math.min(CHUNK, size - pos), pos);
    if (n <= 0) break;
    for (let at = buf.indexOf(10, 0); at >= 0 && at < n; at = buf.indexOf(10, at + 1)) {
      f.lines++;
      f.bytes = pos + at + 1;
      if (f.lines % STEP === 0) f.offsets.push(f.bytes);
    }
    pos += n;
  }
  return f;
}

/**
 * Complete lines in a trace file (0 when it cannot be read). With `upToBytes`, only the lines in
 * its first bytes (what had been written when the caller looked).
 */
export async function countTraceLines(path: string, upToBytes?: number): Promise<number> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch {
    return 0;
  }
  try {
    if (upToBytes === undefined) return (await serialized(path, () => scan(fh, path))).lines;
    // Counted from the remembered positions when they do not pass the bound, else afresh.
    return await serialized(path, async () => {
      const known = files.get(path);
      if (known && known.bytes <= upToBytes) return (await scan(fh, path, upToBytes)).lines;
      let lines = 0;
      const buf = Buffer.allocUnsafe(CHUNK);
      for (let pos = 0; pos < upToBytes; ) {
        const { bytesRead: n } = await fh.read(buf, 0, Math.min(CHUNK, upToBytes - pos), pos);
        if (n <= 0) break;
        for (let at = buf.indexOf(10, 0); at >= 0 && at < n; at = buf.indexOf(10, at + 1)) lines++;
        pos += n;
      }
      return lines;
    });
  } finally {
    await fh.close();
  }
}

export interface TraceSlice {
  events: TraceEvent[];
  /** Line index of the first line read. */
  from: number;
  /** The line index to ask for next. */
  next: number;
}

/**
 * Up to `limit` events from line `after` (0-based), or from the last `last` lines when given. A
 * line that is not JSON is skipped (and counted as a line); a torn last line is left for later.
 * Rejects with ENOENT-style errors for a missing file.
 */
export async function readTraceLinesAt(path: string, q: { after?: number; last?: number; limit: number }): Promise<TraceSlice> {
  const fh = await open(path, 'r');
  try {
    const f = await serialized(path, () => scan(fh, path));
    const lines = f.lines;
    const end = f.bytes;
    const from = q.last !== undefined ? Math.max(0, lines - q.last) : Math.min(q.after ?? 0, lines);
    const events: TraceEvent[] = [];
    let line = Math.floor(from / STEP) * STEP;
    let pos = f.offsets[line / STEP];
    // Whole lines are decoded at a time (a chunk may end inside a multi-byte character).
    let carry: Buffer = Buffer.alloc(0);
    const buf = Buffer.allocUnsafe(CHUNK);
    while (line < lines && events.length < q.limit && pos < end) {
      const { bytesRead: n } = await fh.read(buf, 0, Math.min(CHUNK, end - pos), pos);
      if (n <= 0) break;
      pos += n;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const last = data.lastIndexOf(10) + 1;
      carry = Buffer.from(data.subarray(last));
      const text = data.toString('utf8', 0, last);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0 && events.length < q.limit; nl = text.indexOf('\n', start)) {
        if (line >= from) {
          try {
            events.push(JSON.parse(text.slice(start, nl)) as TraceEvent);
          } catch {
            // not JSON: skipped, never fatal
          }
        }
        line++;
        start = nl + 1;
      }
    }
    return { events, from, next: Math.max(line, from) };
  } finally {
    await fh.close();
  }
}
