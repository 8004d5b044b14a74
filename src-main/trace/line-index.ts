import { open, type FileHandle } from 'node:fs/promises';
import type { TraceEvent } from '../../src-shared/trace';
import { streamTraceLines } from './jsonl';
import { noSkippedLines, type SkippedLines } from './line';

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
  for (let pos = f.bytes; pos < size;) {
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
      for (let pos = 0; pos < upToBytes;) {
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
  /** Lines of the slice skipped by the readers' rules (trace/line.ts), by reason. */
  skipped: SkippedLines;
}

/**
 * Up to `limit` events from line `after` (0-based), or from the last `last` lines when given. A
 * line the readers' rules skip (not an event, too long, nested too deep, claiming another session
 * than `session`) is counted, and still counted as a line; a torn last line is left for later.
 * Rejects with ENOENT-style errors for a missing file.
 */
export async function readTraceLinesAt(
  path: string,
  q: { after?: number; last?: number; limit: number },
  session?: string,
): Promise<TraceSlice> {
  const fh = await open(path, 'r');
  let f: FileLines;
  try {
    f = await serialized(path, () => scan(fh, path));
  } finally {
    await fh.close();
  }
  const from = q.last !== undefined ? Math.max(0, f.lines - q.last) : Math.min(q.after ?? 0, f.lines);
  const events: TraceEvent[] = [];
  const skipped = noSkippedLines();
  let line = Math.floor(from / STEP) * STEP;
  if (line < f.lines && q.limit > 0) {
    // Blank lines come too, so that every line read moves the line index by one.
    await streamTraceLines(path, { start: f.offsets[line / STEP], upTo: f.bytes, session, blank: true }, (batch) => {
      for (const l of batch) {
        if (line++ < from) continue;
        if ('event' in l) events.push(l.event as TraceEvent);
        else skipped[l.skipped]++;
        if (events.length >= q.limit) return false;
      }
    });
  }
  return { events, from, next: Math.max(line, from), skipped };
}
