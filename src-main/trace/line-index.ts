import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { TraceEvent } from '../../src-shared/trace';

// Trace lines by line index without reading the file from its start: where every STEP-th line
// begins is remembered per file, and only bytes not seen before are scanned. Live views ask for
// "lines from N" and "the last N lines" of files that grow to hundreds of megabytes; a read from
// the start per page would cost the core seconds each time. Trace files only grow; one that
// shrank (replaced) is scanned afresh.

const STEP = 1024;
const CHUNK = 4 * 1024 * 1024;
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

function scan(fd: number, path: string): FileLines {
  const size = fstatSync(fd).size;
  let f = files.get(path);
  if (!f || size < f.bytes) f = { offsets: [0], lines: 0, bytes: 0 };
  files.delete(path);
  files.set(path, f);
  if (files.size > MAX_FILES) files.delete(files.keys().next().value!);
  const buf = Buffer.allocUnsafe(CHUNK);
  for (let pos = f.bytes; pos < size; ) {
    const n = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
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

/** Complete lines in a trace file (0 when it cannot be read). */
export function countTraceLines(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 0;
  }
  try {
    return scan(fd, path).lines;
  } finally {
    closeSync(fd);
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
 * Throws ENOENT-style errors for a missing file.
 */
export function readTraceLinesAt(path: string, q: { after?: number; last?: number; limit: number }): TraceSlice {
  const fd = openSync(path, 'r');
  try {
    const f = scan(fd, path);
    const from = q.last !== undefined ? Math.max(0, f.lines - q.last) : Math.min(q.after ?? 0, f.lines);
    const events: TraceEvent[] = [];
    let line = Math.floor(from / STEP) * STEP;
    let pos = f.offsets[line / STEP];
    // Whole lines are decoded at a time (a chunk may end inside a multi-byte character).
    let carry: Buffer = Buffer.alloc(0);
    const buf = Buffer.allocUnsafe(CHUNK);
    while (line < f.lines && events.length < q.limit && pos < f.bytes) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, f.bytes - pos), pos);
      if (n <= 0) break;
      pos += n;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const end = data.lastIndexOf(10) + 1;
      carry = Buffer.from(data.subarray(end));
      const text = data.toString('utf8', 0, end);
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
    closeSync(fd);
  }
}
