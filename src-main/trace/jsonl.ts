import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

// Reads trace.jsonl from a byte offset. Only complete lines (ending in "\n") are returned, so a
// line still being written, or torn by a crash mid-write, is left for later and reported instead
// of failing the read. A complete line that is not JSON is skipped and counted.

export interface TraceLine {
  /** Byte offset where the line starts (stable: the file is append-only). */
  offset: number;
  /** Length of the line in bytes, without its newline. */
  bytes: number;
  /** The raw line without its newline. */
  text: string;
  event: Record<string, unknown>;
}

export interface TraceChunk {
  lines: TraceLine[];
  /** Offset just past the last complete line read; the next read starts here. */
  end: number;
  /** Size of the file when read. */
  size: number;
  /** A trailing partial line (no newline yet): where it starts and how long it is. */
  torn?: { offset: number; bytes: number };
  /** Complete lines that were not JSON objects, by offset. */
  bad: number[];
}

/** A complete line, not yet parsed (the index parses only the lines whose fields it needs). */
export interface RawTraceLine {
  offset: number;
  bytes: number;
  text: string;
}

export interface RawTraceChunk extends Omit<TraceChunk, 'lines' | 'bad'> {
  lines: RawTraceLine[];
}

const CHUNK = 4 * 1024 * 1024;

/** Reads complete lines from `start`, at most about `maxBytes` (whole lines; at least one line). */
export function readTraceLines(path: string, start = 0, maxBytes = Infinity): TraceChunk {
  const raw = readRawTraceLines(path, start, maxBytes);
  const lines: TraceLine[] = [];
  const bad: number[] = [];
  parseInto(raw.lines, lines, bad);
  return { lines, end: raw.end, size: raw.size, torn: raw.torn, bad };
}

/** readTraceLines without the JSON parse: blank lines are dropped, every other complete line kept. */
export function readRawTraceLines(path: string, start = 0, maxBytes = Infinity): RawTraceChunk {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const split = lineSplitter(start, maxBytes);
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let pos = start; pos < size && !split.full(); ) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
      if (n <= 0) break;
      split.push(buf.subarray(0, n), pos);
      pos += n;
    }
    return split.chunk(size);
  } finally {
    closeSync(fd);
  }
}

/** The chunk an asynchronous read hands the main thread at a time: parsing one stays a few ms. */
const ASYNC_CHUNK = 512 * 1024;

/**
 * readTraceLines for the main process at run time (a replay, a rehearsal): the file is read in
 * pieces off the main thread and each piece parsed between reads, so a big trace never holds the
 * window's thread for longer than one piece takes.
 */
export async function readTraceLinesAsync(path: string, start = 0, maxBytes = Infinity): Promise<TraceChunk> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const split = lineSplitter(start, maxBytes);
    const buf = Buffer.allocUnsafe(ASYNC_CHUNK);
    const lines: TraceLine[] = [];
    const bad: number[] = [];
    for (let pos = start; pos < size && !split.full(); ) {
      const { bytesRead } = await file.read(buf, 0, Math.min(ASYNC_CHUNK, size - pos), pos);
      if (bytesRead <= 0) break;
      split.push(buf.subarray(0, bytesRead), pos);
      pos += bytesRead;
      parseInto(split.take(), lines, bad);
    }
    const raw = split.chunk(size);
    return { lines, end: raw.end, size: raw.size, torn: raw.torn, bad };
  } finally {
    await file.close();
  }
}

function parseInto(raw: readonly RawTraceLine[], lines: TraceLine[], bad: number[]): void {
  for (const l of raw) {
    const event = parseEvent(l.text);
    if (event) lines.push({ offset: l.offset, bytes: l.bytes, text: l.text, event });
    else bad.push(l.offset);
  }
}

/**
 * Cuts pieces of a file, read in order from `start`, into complete lines: a line cut at a piece's
 * end waits for the next. Stops taking lines once about `maxBytes` were read (whole lines).
 */
function lineSplitter(start: number, maxBytes: number) {
  let lines: RawTraceLine[] = [];
  let carry: Buffer | null = null;
  let carryAt = start;
  let end = start;
  const full = () => end - start >= maxBytes;
  return {
    full,
    push(piece: Buffer, pos: number): void {
      const data: Buffer = carry ? Buffer.concat([carry, piece]) : piece;
      const base = carry ? carryAt : pos;
      let from = 0;
      // Traces are mostly ASCII: then a byte is a character, the piece decodes once and lines are
      // slices of it. Otherwise each line decodes on its own.
      const ascii = isAscii(data) ? data.toString('latin1') : null;
      for (;;) {
        const nl = ascii === null ? data.indexOf(10, from) : ascii.indexOf('\n', from);
        if (nl < 0) break;
        const at = base + from;
        const text = ascii === null ? data.toString('utf8', from, nl) : ascii.slice(from, nl);
        // A line that opens an object (the writer's lines all do) skips the blank-line check.
        const blank = text.charCodeAt(0) !== 123 && text.trim() === '';
        from = nl + 1;
        end = base + from;
        if (!blank) lines.push({ offset: at, bytes: base + nl - at, text });
        if (full()) break;
      }
      // Copied: the reader reuses its buffer for the next piece.
      carry = !full() && from < data.length ? Buffer.from(data.subarray(from)) : null;
      carryAt = base + from;
    },
    /** The lines cut so far, handed over (the next call returns only newer ones). */
    take(): RawTraceLine[] {
      const out = lines;
      lines = [];
      return out;
    },
    chunk(size: number): RawTraceChunk {
      const torn = !full() && end < size ? { offset: end, bytes: size - end } : undefined;
      return { lines: this.take(), end, size, torn };
    },
  };
}

/** The line as a trace event, or null when it is not a JSON object with an event_type. */
export function parseEvent(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { event_type?: unknown }).event_type === 'string'
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Reads byte ranges of a trace file (lines the index points at), coalescing adjacent ones. */
export function readTraceRanges(path: string, ranges: readonly { off: number; len: number }[]): string[] {
  if (!ranges.length) return [];
  const fd = openSync(path, 'r');
  try {
    const out: string[] = [];
    for (let i = 0; i < ranges.length; ) {
      // A run of lines that follow each other in the file is one read.
      let j = i;
      while (j + 1 < ranges.length && ranges[j + 1].off === ranges[j].off + ranges[j].len + 1) j++;
      const start = ranges[i].off;
      const buf = Buffer.allocUnsafe(ranges[j].off + ranges[j].len - start);
      const n = readSync(fd, buf, 0, buf.length, start);
      for (let k = i; k <= j; k++) out.push(buf.toString('utf8', ranges[k].off - start, Math.min(n, ranges[k].off - start + ranges[k].len)));
      i = j + 1;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
