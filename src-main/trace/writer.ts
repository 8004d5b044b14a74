import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TraceEvent } from '../../src-shared/trace';

// Append-only trace.jsonl writer. Lines are encoded into one reused 64 KiB buffer as they come
// and written on the next tick (or when the buffer is full), so a burst costs one write and
// builds no big string to copy again; flush() writes now. A crash loses at most the unflushed tail. Secrets (interpolated ${VAR} values, keys) are masked before any line
// leaves this module, whatever event carried them.

export interface TraceWriter {
  readonly path: string;
  readonly sessionId: string;
  /**
   * `last` is a field whose JSON the caller already has (a task_end's final task, which the
   * registry keeps as that same JSON): it is written as the line's last field, as is.
   */
  append(event: { event_type: string } & Record<string, unknown>, last?: SerializedField): TraceEvent;
  /** Bytes in the file so far: a line appended after reading this starts at or past it. */
  readonly written: number;
  /** Lines that could not be written (disk full, write error) since the writer opened. */
  readonly lostLines: number;
  /** The last write failed: lines appended now are likely lost too. */
  readonly failing: boolean;
  /** Listeners see every event as appended (live views, WatchSession, the index). */
  subscribe(listener: (event: TraceEvent) => void): () => void;
  flush(): void;
  dispose(): void;
}

/** A field of a trace line with its value already serialized (`json` is JSON.stringify(value)). */
export interface SerializedField {
  key: string;
  value: unknown;
  json: string;
}

/** The buffer lines wait in; a line that might not fit in it is written on its own. */
const CHUNK = 64 * 1024;

let lastMs = 0;
let lastIso = '';

/** The current time as RFC 3339 ms; a burst within one millisecond formats it once (trace lines, task timestamps). */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** The masks of every open writer: text bound for a log that no session owns is masked with all of them. */
const openMasks = new Set<readonly string[]>();

/** Masks the secrets of every session this process has open (the last-resort report on stderr). */
export function maskOpenSecrets(text: string): string {
  let out = text;
  for (const masks of openMasks) out = maskSecrets(out, masks);
  return out;
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4 && out.includes(s)) out = out.split(s).join('***');
  return out;
}

/** The terminal hears of a trace that cannot be written; once it is gone there is nobody to tell. */
function reportWriteFailure(path: string, sessionId: string, err: unknown): void {
  if (process.stderr.destroyed || !process.stderr.writable) return;
  process.stderr.write(
    `capsule: cannot write ${path} (${(err as Error).message}); trace lines of session ${sessionId} are lost until it can\n`,
  );
}

/**
 * A file whose last line was torn (a crash mid-write) gets its newline before anything is
 * appended: the fragment stays one line that readers skip and count, and the first new line
 * (a resumed session's session_start) starts on a line of its own instead of being glued to it.
 */
function endTornLine(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] !== 0x0a) writeSync(fd, '\n');
}

export function createTraceWriter(path: string, sessionId: string, secrets: readonly string[] = []): TraceWriter {
  mkdirSync(dirname(path), { recursive: true });
  // 'a+' so the last byte can be read: writes still always go to the end.
  const fd = openSync(path, 'a+');
  endTornLine(fd);
  const listeners = new Set<(e: TraceEvent) => void>();
  // Secrets also appear JSON-escaped inside serialized lines.
  const masks = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))].filter((s) => s.length >= 4);
  if (masks.length) openMasks.add(masks);
  let buffer = Buffer.allocUnsafe(CHUNK);
  /** Bytes of buffer holding lines not yet written. */
  let used = 0;
  let scheduled = false;
  let closed = false;
  /** The file's size, taken when first asked for and kept up to date by every write after. */
  let written = -1;

  /** The file ends inside a line (the disk cut a write short): the next write ends that line first. */
  let midLine = false;
  /** A write is failing (disk full, read-only, gone): said once, not once per flush. */
  let failing = false;
  let lostLines = 0;

  // A failed write loses its lines, as a crash loses the unflushed tail, but never the file's
  // shape: what did reach the disk stays a line of its own, and the session keeps running.
  const writeOut = (bytes: Buffer, length: number) => {
    let done = 0;
    try {
      if (midLine) {
        writeSync(fd, '\n');
        midLine = false;
        if (written >= 0) written += 1;
      }
      while (done < length) done += writeSync(fd, bytes, done, length - done);
      failing = false;
    } catch (err) {
      if (done > 0) midLine = bytes[done - 1] !== 0x0a;
      // Every line not wholly written is lost, the one cut short included.
      for (let i = done; i < length; i++) if (bytes[i] === 0x0a) lostLines++;
      if (!failing) reportWriteFailure(path, sessionId, err);
      failing = true;
    }
    if (written >= 0) written += done;
  };
  const flush = () => {
    scheduled = false;
    if (!used || closed) return;
    const length = used;
    used = 0;
    writeOut(buffer, length);
  };
  /**
   * One line: its JSON, and for a line with a last field, the field's key and JSON, which go
   * after the line's own fields (`json` then has no closing brace). The line goes into the buffer
   * whole, so a write never holds part of a line unless the disk fails; the pieces are encoded
   * one after the other, never joined into one string first.
   */
  const queue = (json: string, key?: string, value?: string) => {
    const head = key === undefined ? '' : `,${JSON.stringify(key)}:`;
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    const worst = (json.length + head.length + (value?.length ?? 0)) * 3 + 2;
    if (used + worst > CHUNK) flush();
    if (worst > CHUNK) {
      const whole = Buffer.from(value === undefined ? `${json}\n` : `${json}${head}${value}}\n`);
      return writeOut(whole, whole.length);
    }
    used += buffer.write(json, used);
    if (value !== undefined) {
      used += buffer.write(head, used);
      used += buffer.write(value, used);
      buffer[used++] = 0x7d; // }
    }
    buffer[used++] = 0x0a;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };

  return {
    path,
    sessionId,
    get lostLines() {
      return lostLines;
    },
    get failing() {
      return failing;
    },
    get written() {
      if (written < 0) written = closed ? 0 : fstatSync(fd).size;
      return written;
    },
    append(event, last) {
      // Object.assign keeps the line's key order (ts, event_type, session_id, task_id, then the
      // event's own fields) without a rest-spread copy; the event's own ts or session_id still
      // win. The task id comes early so the index reads it from the line's head without a parse.
      const head =
        event.task_id === undefined
          ? { ts: isoNow(), event_type: event.event_type, session_id: sessionId }
          : { ts: isoNow(), event_type: event.event_type, session_id: sessionId, task_id: event.task_id };
      const line = Object.assign(head, event) as TraceEvent;
      if (closed) return line;
      const json = JSON.stringify(line);
      if (last) (line as Record<string, unknown>)[last.key] = last.value;
      const whole = masks.length
        ? last
          ? `${json.slice(0, -1)},${JSON.stringify(last.key)}:${last.json}}`
          : json
        : '';
      if (masks.length && masks.some((m) => whole.includes(m))) {
        const masked = maskSecrets(whole, masks);
        // Listeners must not see the secret either: they get the masked line back.
        Object.assign(line, JSON.parse(masked));
        queue(masked);
      } else if (last) queue(json.slice(0, -1), last.key, last.json);
      else queue(json);
      for (const l of listeners) {
        try {
          l(line);
        } catch {}
      }
      return line;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush,
    dispose() {
      if (closed) return;
      flush();
      closed = true;
      openMasks.delete(masks);
      try {
        fsyncSync(fd);
      } catch {}
      closeSync(fd);
      listeners.clear();
      buffer = Buffer.alloc(0);
    },
  };
}
