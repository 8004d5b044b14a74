import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import {
  noSkippedLines,
  parseTraceLine,
  sessionGate,
  MAX_TRACE_LINE_BYTES,
  type SkippedLines,
  type SkipReason,
} from './line';

// Reads trace.jsonl from a byte offset. Only complete lines (ending in "\n") are returned, so a
// line still being written, or torn by a crash mid-write, is left for later and reported instead
// of failing the read. Every complete line goes through the one set of rules in line.ts: a line
// too long, not a trace event, nested too deep or claiming another session is skipped and counted.

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
  /** Complete lines skipped, by reason. */
  skipped: SkippedLines;
  /** The file's session (its first event's session_id, or the one the caller named). */
  session?: string;
}

/** A complete line, not yet parsed (the index parses only the lines whose fields it needs). */
export interface RawTraceLine {
  offset: number;
  bytes: number;
  text: string;
}

export interface RawTraceChunk extends Omit<TraceChunk, 'lines' | 'skipped' | 'session'> {
  lines: RawTraceLine[];
  /** Complete lines over MAX_TRACE_LINE_BYTES, skipped unread. */
  long: number;
}

/** A line as the splitter hands it over: `text` is null for a line over the limit (never decoded). */
type CutLine = { offset: number; bytes: number; text: string | null };

/** One complete line as a streaming reader sees it: an event of the file's session, or why it was skipped. */
export type ReadLine = TraceLine | { offset: number; bytes: number; skipped: SkipReason };

export interface ReadOptions {
  start?: number;
  /** Stop after about this many bytes (whole lines; at least one line). */
  maxBytes?: number;
  /** Read no further than this offset (default: the file's size when opened). */
  upTo?: number;
  /** The file's session when already known (a read from the middle of the file). */
  session?: string;
  /** Hand blank lines over as skipped ones too, so a count of lines stays a line number. */
  blank?: boolean;
}

const CHUNK = 4 * 1024 * 1024;

/** Reads complete lines from `start`, at most about `maxBytes` (whole lines; at least one line). */
export function readTraceLines(path: string, start = 0, maxBytes = Infinity, session?: string): TraceChunk {
  const raw = readCut(path, { start, maxBytes });
  const out = collector(session);
  out.add(raw.lines);
  return out.chunk(raw);
}

/** readTraceLines without the JSON parse: blank and over-long lines are dropped, every other complete line kept. */
export function readRawTraceLines(path: string, start = 0, maxBytes = Infinity): RawTraceChunk {
  const raw = readCut(path, { start, maxBytes });
  const lines: RawTraceLine[] = [];
  let long = 0;
  for (const l of raw.lines) {
    if (l.text === null) long++;
    else if (!isBlank(l.text)) lines.push(l as RawTraceLine);
  }
  return { lines, end: raw.end, size: raw.size, torn: raw.torn, long };
}

function readCut(path: string, o: ReadOptions) {
  const fd = openSync(path, 'r');
  try {
    const size = Math.min(fstatSync(fd).size, o.upTo ?? Infinity);
    const start = o.start ?? 0;
    const split = lineSplitter(start, o.maxBytes ?? Infinity);
    // A short read (a file's first lines) takes small pieces.
    const piece = Math.min(CHUNK, Math.max(64 * 1024, o.maxBytes ?? Infinity));
    const buf = Buffer.allocUnsafe(piece);
    for (let pos = start; pos < size && !split.full();) {
      const n = readSync(fd, buf, 0, Math.min(piece, size - pos), pos);
      if (n <= 0) break;
      split.push(buf.subarray(0, n), pos);
      pos += n;
    }
    return split.chunk(size);
  } finally {
    closeSync(fd);
  }
}

/**
 * The chunk an asynchronous read hands the main thread at a time: parsing one (about 800 lines of
 * 160 bytes) and what the caller does with them stays a few ms, within the main thread's slice.
 */
const ASYNC_CHUNK = 128 * 1024;

/**
 * readTraceLines for the main process at run time (a replay, a rehearsal): the file is read in
 * pieces off the main thread and each piece parsed between reads, so a big trace never holds the
 * window's thread for longer than one piece takes.
 */
export async function readTraceLinesAsync(
  path: string,
  start = 0,
  maxBytes = Infinity,
  session?: string,
): Promise<TraceChunk> {
  const lines: TraceLine[] = [];
  const read = await streamTraceLines(path, { start, maxBytes, session }, (batch) => {
    for (const l of batch) if ('event' in l) lines.push(l);
  });
  return { ...read, lines };
}

/**
 * Reads complete lines asynchronously and hands them to `each` a piece at a time, skipped ones
 * included (in file order); `each` returning false stops the read. Nothing but the current
 * piece and its lines is held, whatever the file's size.
 */
export async function streamTraceLines(
  path: string,
  o: ReadOptions,
  each: (batch: ReadLine[]) => boolean | void,
): Promise<Omit<TraceChunk, 'lines'>> {
  // Each piece's lines go to `each` and are not kept here: a whole trace never accumulates.
  const out = collector(o.session, o.blank, false);
  const raw = await streamCut(path, o, (cut) => each(out.add(cut)));
  const { lines: _lines, ...rest } = out.chunk(raw);
  return rest;
}

/**
 * streamTraceLines without the JSON parse, as readRawTraceLines reads: blank and over-long lines
 * are dropped (over-long ones counted in `long`), every other complete line handed to `each`
 * unparsed, a piece at a time; `each` returning false stops the read.
 */
export async function streamRawTraceLines(
  path: string,
  o: Pick<ReadOptions, 'start' | 'maxBytes' | 'upTo'>,
  each: (batch: RawTraceLine[]) => boolean | void,
): Promise<Omit<RawTraceChunk, 'lines'>> {
  let long = 0;
  const raw = await streamCut(path, o, (cut) => {
    const lines: RawTraceLine[] = [];
    for (const l of cut) {
      if (l.text === null) long++;
      else if (!isBlank(l.text)) lines.push(l as RawTraceLine);
    }
    return each(lines);
  });
  return { end: raw.end, size: raw.size, torn: raw.torn, long };
}

/** Reads a file a piece at a time off the main thread, handing each piece's complete lines to `each`. */
async function streamCut(path: string, o: ReadOptions, each: (cut: CutLine[]) => boolean | void) {
  const file = await open(path, 'r');
  try {
    const size = Math.min((await file.stat()).size, o.upTo ?? Infinity);
    const start = o.start ?? 0;
    const split = lineSplitter(start, o.maxBytes ?? Infinity);
    const buf = Buffer.allocUnsafe(ASYNC_CHUNK);
    for (let pos = start; pos < size && !split.full();) {
      const { bytesRead } = await file.read(buf, 0, Math.min(ASYNC_CHUNK, size - pos), pos);
      if (bytesRead <= 0) break;
      split.push(buf.subarray(0, bytesRead), pos);
      pos += bytesRead;
      if (each(split.take()) === false) break;
    }
    return split.chunk(size);
  } finally {
    await file.close();
  }
}

const isBlank = (text: string) => text.charCodeAt(0) !== 123 && text.trim() === '';

/**
 * Parses cut lines by the rules of line.ts, counting the skipped ones; the file's own events are
 * kept for chunk() unless `keep` is false (a streaming read hands each batch on and forgets it).
 */
function collector(session?: string, blank = false, keep = true) {
  const gate = sessionGate(session);
  const skipped = noSkippedLines();
  const lines: TraceLine[] = [];
  return {
    /** Parses a batch; returns it as read lines (skipped ones too) and keeps its events. */
    add(cut: readonly CutLine[]): ReadLine[] {
      const batch: ReadLine[] = [];
      for (const l of cut) {
        const { offset, bytes, text } = l;
        let reason: SkipReason;
        if (text === null) reason = 'long';
        else if (isBlank(text)) {
          if (blank) batch.push({ offset, bytes, skipped: 'bad' });
          continue;
        } else {
          const event = parseTraceLine(text);
          if (typeof event !== 'string') {
            if (gate.own(event.session_id)) {
              const line = { offset, bytes, text, event };
              if (keep) lines.push(line);
              batch.push(line);
              continue;
            }
            reason = 'foreign';
          } else reason = event;
        }
        skipped[reason]++;
        batch.push({ offset, bytes, skipped: reason });
      }
      return batch;
    },
    chunk(raw: { end: number; size: number; torn?: { offset: number; bytes: number } }): TraceChunk {
      return {
        lines,
        end: raw.end,
        size: raw.size,
        torn: raw.torn,
        skipped,
        ...(gate.session ? { session: gate.session } : {}),
      };
    },
  };
}

/**
 * Cuts pieces of a file, read in order from `start`, into complete lines: a line cut at a piece's
 * end waits for the next. A line longer than MAX_TRACE_LINE_BYTES is never held: once its bytes
 * pass the limit they are dropped as they come, and it is handed over with no text. Stops taking
 * lines once about `maxBytes` were read (whole lines).
 */
function lineSplitter(start: number, maxBytes: number) {
  let lines: CutLine[] = [];
  /** The start of the line the last piece ended in: its pieces so far (copied), or none while it is skipped. */
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let carryAt = start;
  /** The line the last piece ended in is over the limit: its bytes are dropped until its newline. */
  let skipping = false;
  let end = start;
  const full = () => end - start >= maxBytes;
  const endLine = (at: number, nl: number) => {
    lines.push({ offset: at, bytes: nl - at, text: null });
    end = nl + 1;
  };
  return {
    full,
    push(piece: Buffer, pos: number): void {
      let first = piece.indexOf(10);
      if (first < 0) {
        // No line ends in this piece: keep it for the line, or drop it once the line is too long.
        if (!skipping && carryBytes + piece.length > MAX_TRACE_LINE_BYTES) {
          skipping = true;
          carry = [];
        }
        if (!skipping) carry.push(Buffer.from(piece));
        carryBytes += piece.length;
        return;
      }
      let data = piece;
      let base = pos;
      if (skipping) {
        endLine(carryAt, pos + first);
        skipping = false;
        data = piece.subarray(first + 1);
        base = pos + first + 1;
        first = data.indexOf(10);
      } else if (carry.length) {
        data = Buffer.concat([...carry, piece]);
        base = carryAt;
        first += carryBytes;
      }
      carry = [];
      carryBytes = 0;
      let from = 0;
      if (!full()) {
        // Traces are mostly ASCII: then a byte is a character, the piece decodes once and lines are
        // slices of it. Otherwise each line decodes on its own.
        const ascii = first >= 0 && isAscii(data) ? data.toString('latin1') : null;
        for (let nl = first; nl >= 0; nl = ascii === null ? data.indexOf(10, from) : ascii.indexOf('\n', from)) {
          const at = base + from;
          if (nl - from > MAX_TRACE_LINE_BYTES) endLine(at, base + nl);
          else {
            lines.push({
              offset: at,
              bytes: nl - from,
              text: ascii === null ? data.toString('utf8', from, nl) : ascii.slice(from, nl),
            });
            end = base + nl + 1;
          }
          from = nl + 1;
          if (full()) break;
        }
      }
      carryAt = base + from;
      if (full() || from >= data.length) return;
      // Copied: the reader reuses its buffer for the next piece.
      carryBytes = data.length - from;
      if (carryBytes > MAX_TRACE_LINE_BYTES) skipping = true;
      else carry.push(Buffer.from(data.subarray(from)));
    },
    /** The lines cut so far, handed over (the next call returns only newer ones). */
    take(): CutLine[] {
      const out = lines;
      lines = [];
      return out;
    },
    chunk(size: number) {
      const torn = !full() && end < size ? { offset: end, bytes: size - end } : undefined;
      return { lines: this.take(), end, size, torn };
    },
  };
}

/** The line as a trace event, or null when line.ts's rules skip it (not an event, nested too deep). */
export function parseEvent(text: string): Record<string, unknown> | null {
  const event = parseTraceLine(text);
  return typeof event === 'string' ? null : event;
}

/** Reads byte ranges of a trace file (lines the index points at), coalescing adjacent ones. */
export function readTraceRanges(path: string, ranges: readonly { off: number; len: number }[]): string[] {
  if (!ranges.length) return [];
  const fd = openSync(path, 'r');
  try {
    const out: string[] = [];
    for (let i = 0; i < ranges.length;) {
      // A run of lines that follow each other in the file is one read.
      let j = i;
      while (j + 1 < ranges.length && ranges[j + 1].off === ranges[j].off + ranges[j].len + 1) j++;
      const start = ranges[i].off;
      const buf = Buffer.allocUnsafe(ranges[j].off + ranges[j].len - start);
      const n = readSync(fd, buf, 0, buf.length, start);
      for (let k = i; k <= j; k++)
        out.push(buf.toString('utf8', ranges[k].off - start, Math.min(n, ranges[k].off - start + ranges[k].len)));
      i = j + 1;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** The most bytes one asynchronous range read takes (a single line longer than this is read alone). */
const RANGE_READ_BYTES = 1024 * 1024;

/**
 * readTraceRanges for the main process at run time (the sessions browser's commands): the lines
 * are read off the main thread, adjacent ones together up to RANGE_READ_BYTES a read, so a page of
 * events never holds the window's thread on the disk and its buffers stay bounded.
 */
export async function readTraceRangesAsync(
  path: string,
  ranges: readonly { off: number; len: number }[],
): Promise<string[]> {
  if (!ranges.length) return [];
  const file = await open(path, 'r');
  try {
    const out: string[] = [];
    for (let i = 0; i < ranges.length;) {
      // A run of lines that follow each other in the file is one read, up to the bound.
      const start = ranges[i].off;
      let j = i;
      while (
        j + 1 < ranges.length &&
        ranges[j + 1].off === ranges[j].off + ranges[j].len + 1 &&
        ranges[j + 1].off + ranges[j + 1].len - start <= RANGE_READ_BYTES
      )
        j++;
      const buf = Buffer.allocUnsafe(ranges[j].off + ranges[j].len - start);
      const { bytesRead } = await file.read(buf, 0, buf.length, start);
      for (let k = i; k <= j; k++)
        out.push(
          buf.toString('utf8', ranges[k].off - start, Math.min(bytesRead, ranges[k].off - start + ranges[k].len)),
        );
      i = j + 1;
    }
    return out;
  } finally {
    await file.close();
  }
}
