import {
  close,
  closeSync,
  constants,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncate,
  ftruncateSync,
  openSync,
  readSync,
  write,
  writeSync,
} from 'node:fs';

// The file under a trace writer: byte chunks appended in order, written off the main thread (one
// write in flight at a time, through the thread pool) so a slow disk never stalls the event loop.
// Every chunk is given its place in the file when it is queued and written there (a positional
// write, not an append): writeAllNow() can then write whatever is still queued, the chunk in
// flight included, at once and synchronously, and the write still in flight puts the same bytes
// at the same place again. A failed write (disk full, read-only) loses its chunk's lines, never
// the file's shape: what did reach the disk stays a line of its own (the next chunk starts with
// a newline), and the chunks after it move back to where the file really ends. The file is the
// writer's alone while it is open (one session, one writer): bytes another process appended meanwhile
// would be written over. Each write is a round trip through the thread pool, so its owner is told
// when the queue empties (`empty`) and hands over what it gathered meanwhile as one chunk: the
// lines of many tasks go in one write, not one write each. It is also given each chunk's bytes
// back once no write reads them any more (`free`), to fill them again instead of allocating.

export interface AppendFileOwner {
  /** A write failed (disk full, read-only): said once, until a write succeeds again. */
  failed(err: unknown): void;
  /** Nothing is in flight or queued any more. */
  empty(): void;
  /** No write reads these bytes any more (a chunk written, or lost). */
  free(bytes: Buffer): void;
}

export interface AppendFile {
  /** Queues bytes (whole lines) to be written after everything queued before; the caller must not change them afterwards. */
  push(bytes: Buffer, length: number): void;
  /** Bytes pushed since the file opened (newlines the file adds after a failed write not counted). */
  readonly pushed: number;
  /** A write is in flight or queued: bytes pushed now wait for it. */
  readonly busy: boolean;
  /**
   * Resolves once the first `upTo` bytes pushed (all pushed so far when omitted; bytes the owner
   * will push later may be counted) are written, or lost to a failed write, with where the file
   * ends after them: bytes pushed after those lie at or past that offset.
   */
  drained(upTo?: number): Promise<number>;
  /** Writes everything queued now, on this thread (the CLI, tests, a process about to exit). */
  writeAllNow(): void;
  /** Bytes the file holds for sure: a line queued after reading this starts at or past it. */
  readonly written: number;
  /** Lines lost to failed writes. */
  readonly lostLines: number;
  readonly failing: boolean;
  /** Waits for every write, makes the file durable (fsync) and closes it. */
  close(): Promise<void>;
  /** The same on this thread. */
  closeNow(): void;
}

interface Chunk {
  bytes: Buffer;
  length: number;
  /** Where it goes in the file (its newline first, when `sep`). */
  pos: number;
  /** Bytes pushed before it (`pushed` when it was pushed). */
  from: number;
  /** The file ends inside a line (a write cut short): a newline goes before these bytes. */
  sep: boolean;
}

/** How a chunk's write ended: whether its newline went out, how many of its bytes, and why it stopped. */
interface Outcome {
  sepDone: boolean;
  done: number;
  err?: unknown;
}

const NEWLINE = Buffer.from('\n');

/**
 * Opens (creating) the file and ends a torn last line (a crash mid-write) with a newline before
 * anything is appended: the fragment stays one line that readers skip and count, and the first new
 * line (a resumed session's session_start) starts on a line of its own instead of being glued to it.
 */
export function openAppendFile(path: string, owner: AppendFileOwner): AppendFile {
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o666);
  let end = fstatSync(fd).size;
  if (end > 0) {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, end - 1);
    if (last[0] !== 0x0a) end += writeSync(fd, NEWLINE, 0, 1, end);
  }
  /** Chunks not written yet, in file order; the first may be in flight. */
  const chunks: Chunk[] = [];
  let inFlight: Chunk | undefined;
  /** The next chunk starts with a newline (the file ends inside a line). */
  let sepNext = false;
  let pushed = 0;
  let lostLines = 0;
  let failing = false;
  /** A write failed once: at close the file is cut to where it really ends. */
  let everFailed = false;
  let closing = false;
  let fdClosed = false;
  let closeWhenIdle = false;
  /** In the order of their `upTo`, which only grows (it counts bytes pushed, or about to be). */
  const waiters: { upTo: number; resolve: (end: number) => void }[] = [];
  /** close() waiting for the write in flight to return before the descriptor goes. */
  let onIdle: (() => void) | undefined;

  /**
   * Takes a finished write into account: the chunk leaves the queue, the waiters whose bytes it
   * held learn where they end (where the file really ends, for bytes a failed write lost), and a
   * failure moves the chunks after it back.
   */
  const settle = (c: Chunk, { sepDone, done, err }: Outcome) => {
    chunks.shift();
    const at = c.pos + (c.sep ? 1 : 0);
    const fileEnd = err === undefined ? at + c.length : c.pos + (c.sep && sepDone ? 1 : 0) + done;
    const whole = err === undefined ? c.length : c.sep && !sepDone ? -1 : done;
    while (waiters.length && waiters[0].upTo <= c.from + c.length) {
      const own = waiters[0].upTo - c.from;
      waiters.shift()!.resolve(own <= whole ? at + own : fileEnd);
    }
    if (err === undefined) {
      failing = false;
      return;
    }
    everFailed = true;
    // Every line not wholly written is lost, the one cut short included.
    for (let i = done; i < c.length; i++) if (c.bytes[i] === 0x0a) lostLines++;
    if (!failing) owner.failed(err);
    failing = true;
    const midLine = done > 0 ? c.bytes[done - 1] !== 0x0a : c.sep && !sepDone;
    let pos = fileEnd;
    let sep = midLine;
    for (const n of chunks) {
      n.pos = pos;
      n.sep = sep;
      pos += n.length + (sep ? 1 : 0);
      sep = false;
    }
    end = pos;
    if (chunks.length === 0) sepNext = midLine;
  };

  const writeChunkNow = (c: Chunk): Outcome => {
    let sepDone = false;
    let done = 0;
    try {
      if (c.sep) sepDone = writeSync(fd, NEWLINE, 0, 1, c.pos) === 1;
      const at = c.pos + (c.sep ? 1 : 0);
      while (done < c.length) done += writeSync(fd, c.bytes, done, c.length - done, at + done);
      return { sepDone, done };
    } catch (err) {
      return { sepDone, done, err };
    }
  };

  const writeChunk = (c: Chunk, cb: (o: Outcome) => void) => {
    const at = c.pos + (c.sep ? 1 : 0);
    const rest = (done: number) => {
      if (done >= c.length) return cb({ sepDone: c.sep, done });
      write(fd, c.bytes, done, c.length - done, at + done, (err, n) =>
        err ? cb({ sepDone: c.sep, done, err }) : rest(done + n),
      );
    };
    if (!c.sep) return rest(0);
    write(fd, NEWLINE, 0, 1, c.pos, (err) => (err ? cb({ sepDone: false, done: 0, err }) : rest(0)));
  };

  const finishClose = () => {
    if (fdClosed) return;
    fdClosed = true;
    try {
      if (everFailed) ftruncateSync(fd, end);
    } catch {}
    closeSync(fd);
  };

  const pump = () => {
    if (inFlight || fdClosed) return;
    const c = chunks[0];
    if (!c) return;
    inFlight = c;
    writeChunk(c, (outcome) => {
      inFlight = undefined;
      // writeAllNow() may have written it already (the same bytes, at the same place).
      if (chunks[0] === c) settle(c, outcome);
      owner.free(c.bytes);
      if (closeWhenIdle) return finishClose();
      if (onIdle) return onIdle();
      if (chunks.length) pump();
      else owner.empty();
    });
  };

  return {
    push(bytes, length) {
      if (length === 0 || closing) return;
      const c: Chunk = { bytes, length, pos: end, from: pushed, sep: sepNext };
      end += length + (sepNext ? 1 : 0);
      pushed += length;
      sepNext = false;
      chunks.push(c);
      pump();
    },
    get pushed() {
      return pushed;
    },
    get busy() {
      return chunks.length > 0;
    },
    drained(upTo = pushed) {
      if (chunks.length === 0 && upTo <= pushed) return Promise.resolve(end);
      return new Promise((resolve) => waiters.push({ upTo, resolve }));
    },
    writeAllNow() {
      while (chunks.length) {
        const c = chunks[0];
        settle(c, writeChunkNow(c));
        // The write in flight still reads its bytes: they are freed when it returns.
        if (c !== inFlight) owner.free(c.bytes);
      }
    },
    get written() {
      return chunks.length ? chunks[0].pos : end;
    },
    get lostLines() {
      return lostLines;
    },
    get failing() {
      return failing;
    },
    async close() {
      if (closing) return;
      closing = true;
      await this.drained();
      if (inFlight) await new Promise<void>((resolve) => (onIdle = resolve));
      if (everFailed) await new Promise<void>((resolve) => ftruncate(fd, end, () => resolve()));
      await new Promise<void>((resolve) => fsync(fd, () => resolve()));
      fdClosed = true;
      await new Promise<void>((resolve) => close(fd, () => resolve()));
    },
    closeNow() {
      if (closing) return;
      closing = true;
      this.writeAllNow();
      try {
        fsyncSync(fd);
      } catch {}
      // A write still in flight holds the descriptor: it is closed when that write returns, so the
      // number is never reused under it.
      if (inFlight) closeWhenIdle = true;
      else finishClose();
    },
  };
}
