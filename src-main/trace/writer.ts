import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TraceEvent } from '../../src-shared/trace';
import { openAppendFile } from './append-file';
import { createLineHeads, isoNow, TASK_OPEN, taskHeadText, type Piece, type TypePiece } from './line-head';

// Append-only trace.jsonl writer. Lines are encoded into a 64 KiB buffer as they come and handed
// to the file at the end of the event-loop turn (or when the buffer is full), so a burst costs one
// write and builds no big string to copy again. The writes themselves run off the main thread, one
// at a time and in order (append-file.ts): the Studio's event loop never waits for the disk. While
// a write is in flight the lines wait in the buffer and go together once it returns: under load
// (many tasks ending at once) every write carries the lines of all the turns that ran meanwhile.
// A crash loses at most the lines not yet written: those of the buffer and of the write in flight.
// What the runtime tells the world it has recorded (a blocking SendMessage's answer) waits for
// flush(), which only waits: many callers in one turn share the next write.
// Secrets (interpolated ${VAR} values, keys) are masked before any line leaves this module,
// whatever event carried them.

export interface TraceWriter {
  readonly path: string;
  readonly sessionId: string;
  /**
   * `last` is a field whose JSON the caller already has (a task_end's final task, which the
   * registry keeps as that same JSON): it is written as the line's last field, as is.
   */
  append(event: { event_type: string } & Record<string, unknown>, last?: SerializedField): void;
  /**
   * A line of a task: `taskId` goes in the line's head, right after the session id, as `task_id`
   * would from the event (which then needs none of its own; one it has is set to `taskId`).
   */
  appendTask(taskId: string, event: { event_type: string } & Record<string, unknown>, last?: SerializedField): void;
  /** Bytes in the file so far: a line appended after reading this starts at or past it. */
  readonly written: number;
  /** Lines that could not be written (disk full, write error) since the writer opened. */
  readonly lostLines: number;
  /** The last write failed: lines appended now are likely lost too. */
  readonly failing: boolean;
  /** Listeners see every event as appended (live views, WatchSession, the index). */
  subscribe(listener: (event: TraceEvent) => void): () => void;
  /**
   * Resolves once every line appended so far is in the file (the OS page cache), or lost to a
   * failed write: a reader of the file awaits it first. The value is where the file ends after
   * those lines (lines appended later lie at or past it).
   */
  flush(): Promise<number>;
  /** The same on this thread, at once: the CLI, tests and tools that read the file synchronously. */
  flushSync(): void;
  /** Writes what is left, makes the file durable (fsync) and closes it: a session's end awaits it. */
  close(): Promise<void>;
  /** The same on this thread (tests, tools, a process about to exit). */
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

/** How JSON.stringify opens an event whose first field is its type. */
const TYPE_OPEN = '{"event_type":';

/**
 * The JSON of the event's fields after its type (`,…}`, or `}` when it has no other), as the
 * line has them after its head: when the type (`typeJson` is its JSON) is the event's first field
 * and the event has none of the head's fields (ts, session_id, task_id) nor a toJSON of its own.
 * Otherwise undefined (the line is built whole).
 */
function fieldsAfterType(event: Record<string, unknown>, typeJson: string): string | undefined {
  if ('ts' in event || 'session_id' in event || 'task_id' in event || event.toJSON !== undefined) return undefined;
  const json = JSON.stringify(event);
  // The type's JSON, whole, right at the start: it is the event's first field.
  if (!json.startsWith(TYPE_OPEN) || !json.startsWith(typeJson, TYPE_OPEN.length)) return undefined;
  return json.slice(TYPE_OPEN.length + typeJson.length);
}

/** The terminal hears of a trace that cannot be written; once it is gone there is nobody to tell. */
function reportWriteFailure(path: string, sessionId: string, err: unknown): void {
  if (process.stderr.destroyed || !process.stderr.writable) return;
  process.stderr.write(
    `capsule: cannot write ${path} (${(err as Error).message}); trace lines of session ${sessionId} are lost until it can\n`,
  );
}

export function createTraceWriter(path: string, sessionId: string, secrets: readonly string[] = []): TraceWriter {
  mkdirSync(dirname(path), { recursive: true });
  const file = openAppendFile(path, {
    failed: (err) => reportWriteFailure(path, sessionId, err),
    empty: () => {
      if (used) schedule();
    },
    free: (bytes) => {
      if (bytes.length === CHUNK) spare = bytes;
    },
  });
  const listeners = new Set<(e: TraceEvent) => void>();
  // Secrets also appear JSON-escaped inside serialized lines.
  const masks = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))].filter((s) => s.length >= 4);
  if (masks.length) openMasks.add(masks);
  let buffer: Buffer = Buffer.allocUnsafe(CHUNK);
  /** A buffer the file wrote and gave back: the next one lines go into, warm and allocated. */
  let spare: Buffer | undefined;
  /** Bytes of buffer holding lines not yet handed to the file. */
  let used = 0;
  let scheduled = false;
  let closed = false;

  /**
   * The buffered lines go to the file in their buffer, not copied; the lines after them go into
   * the buffer the file gave back last (one write is in flight at a time, so two buffers take
   * turns), or a new one while the file still holds both.
   */
  const handOver = () => {
    if (!used) return;
    file.push(buffer, used);
    buffer = spare ?? Buffer.allocUnsafe(CHUNK);
    spare = undefined;
    used = 0;
  };
  /** At the end of the turn, unless a write is in flight: the file asks again once it returns. */
  const turnEnd = () => {
    scheduled = false;
    if (!file.busy) handOver();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(turnEnd);
  };
  /**
   * One line: its head's pieces (none for a line serialized whole), its body (the rest of its
   * JSON, closing brace included) and, for a line with a last field, that field's key and value,
   * which go before the brace. The line goes into the buffer whole, so a write never holds part of
   * a line unless the disk fails; the pieces are copied or encoded one after the other, never
   * joined into one string first.
   */
  const queue = (
    open: Piece | undefined,
    type: Piece | undefined,
    task: Piece | string | undefined,
    body: string,
    key?: Piece,
    value?: string,
  ) => {
    const taskBytes =
      task === undefined ? 0 : typeof task === 'string' ? TASK_OPEN.bytes.length + task.length + 1 : task.bytes.length;
    const headBytes = (open?.bytes.length ?? 0) + (type?.bytes.length ?? 0) + taskBytes;
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    const worst = headBytes + (body.length + (value?.length ?? 0)) * 3 + (key?.bytes.length ?? 0) + 2;
    if (used + worst > CHUNK) handOver();
    if (worst > CHUNK) {
      const head = `${open?.text ?? ''}${type?.text ?? ''}${task === undefined ? '' : taskHeadText(task)}`;
      const whole = Buffer.from(
        value === undefined ? `${head}${body}\n` : `${head}${body.slice(0, -1)}${key!.text}${value}}\n`,
      );
      return file.push(whole, whole.length);
    }
    if (open) used += copy(open.bytes);
    if (type) used += copy(type.bytes);
    if (typeof task === 'string') {
      used += copy(TASK_OPEN.bytes);
      used += buffer.write(task, used, 'latin1');
      buffer[used++] = 0x22; // "
    } else if (task) used += copy(task.bytes);
    used += buffer.write(body, used);
    if (value !== undefined) {
      used--; // the body's closing brace: the last field goes before it
      used += copy(key!.bytes);
      used += buffer.write(value, used);
      buffer[used++] = 0x7d; // }
    }
    buffer[used++] = 0x0a;
    schedule();
  };
  const copy = (bytes: Buffer) => {
    buffer.set(bytes, used);
    return bytes.length;
  };

  /** The line as an object, for listeners: the head's fields first, then the event's own (which win). */
  const lineOf = (event: Record<string, unknown>, taskId: unknown, ts: string): TraceEvent =>
    Object.assign(
      taskId === undefined
        ? { ts, event_type: event.event_type, session_id: sessionId }
        : { ts, event_type: event.event_type, session_id: sessionId, task_id: taskId },
      event,
    ) as unknown as TraceEvent;

  const heads = createLineHeads(sessionId);

  /**
   * The line of an event, in the line's key order (ts, event_type, session_id, task_id, then the
   * event's own fields): the task id comes early so the index reads it from the line's head
   * without a parse. `taskId` is the event's own task_id when it has one (then it is written where
   * the head has it, and the event's own ts or session_id win too).
   */
  const add = (event: { event_type: string } & Record<string, unknown>, taskId: unknown, last?: SerializedField) => {
    if (closed) return;
    // The common line is its head, whose pieces are kept encoded, and the event's JSON after its
    // type: no copy of the event with the head's fields is made. Any other event is copied with
    // the head's fields and serialized whole.
    // One time for the line, whoever reads it (the file, listeners).
    const ts = isoNow();
    let open: Piece | undefined;
    let type: TypePiece | undefined;
    let task: Piece | string | undefined;
    let body: string | undefined;
    let line: TraceEvent | undefined;
    if (typeof event.event_type === 'string') {
      open = heads.open(ts);
      type = heads.type(event.event_type);
      body = fieldsAfterType(event, type.json);
    }
    if (body === undefined) {
      open = type = undefined;
      line = lineOf(event, taskId, ts);
      body = JSON.stringify(line);
    } else if (typeof taskId === 'string') task = heads.task(taskId);
    const key = last && heads.key(last.key);
    let masked: string | undefined;
    if (masks.length) {
      const head = `${open?.text ?? ''}${type?.text ?? ''}${task === undefined ? '' : taskHeadText(task)}`;
      const whole = last ? `${head}${body.slice(0, -1)}${key!.text}${last.json}}` : `${head}${body}`;
      if (masks.some((m) => whole.includes(m))) masked = maskSecrets(whole, masks);
      // The line was scanned whole (a secret may span its pieces): it is written whole too.
      queue(undefined, undefined, undefined, masked ?? whole);
    } else queue(open, type, task, body, key, last?.json);
    if (!listeners.size) return;
    line ??= lineOf(event, taskId, ts);
    if (last) (line as Record<string, unknown>)[last.key] = last.value;
    // Listeners must not see the secret either: they get the masked line back.
    if (masked !== undefined) Object.assign(line, JSON.parse(masked));
    for (const l of listeners) {
      try {
        l(line);
      } catch {}
    }
  };

  return {
    path,
    sessionId,
    get lostLines() {
      return file.lostLines;
    },
    get failing() {
      return file.failing;
    },
    get written() {
      return file.written;
    },
    append(event, last) {
      add(event, event.task_id, last);
    },
    appendTask(taskId, event, last) {
      if ('task_id' in event) event.task_id = taskId;
      add(event, taskId, last);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush() {
      return file.drained(file.pushed + used);
    },
    flushSync() {
      handOver();
      file.writeAllNow();
    },
    close() {
      if (closed) return file.close();
      handOver();
      closed = true;
      openMasks.delete(masks);
      listeners.clear();
      return file.close();
    },
    dispose() {
      if (closed) return file.closeNow();
      handOver();
      closed = true;
      openMasks.delete(masks);
      listeners.clear();
      file.closeNow();
    },
  };
}
