import type Database from 'better-sqlite3';

// Where each indexed line lives. A session's lines are kept in blocks of BLOCK consecutive lines,
// one row per block, as packed columns (offset, time, length, task ordinal, type code): a row per
// line cost ingest a b-tree insert per event, the largest single cost of keeping up with 100k
// events/s (docs/performance.md). Every read is a walk over consecutive lines anyway (a page, a task's
// span, a text run), so a block is read whole and picked from in memory.
//
// The last block of a session is usually partial; the next ingest reads it back and rewrites it.

export const BLOCK = 256;

/** One indexed line: where it is in trace.jsonl and what the list views filter on. */
export interface EventEntry {
  seq: number;
  off: number;
  len: number;
  /** The task's ordinal in its session (tasks.ord), or null for a line of no task. */
  taskNo: number | null;
  type: string;
  ts: number | null;
}

/** Bytes per line in a block: off and ts as float64, len and task as uint32, type as uint16. */
const ENTRY_BYTES = 26;

interface Columns {
  off: Float64Array;
  ts: Float64Array;
  len: Uint32Array;
  task: Uint32Array;
  type: Uint16Array;
}

function columnsOf(buf: ArrayBufferLike, byteOffset: number, n: number): Columns {
  return {
    off: new Float64Array(buf, byteOffset, n),
    ts: new Float64Array(buf, byteOffset + 8 * n, n),
    len: new Uint32Array(buf, byteOffset + 16 * n, n),
    task: new Uint32Array(buf, byteOffset + 20 * n, n),
    type: new Uint16Array(buf, byteOffset + 24 * n, n),
  };
}

/** A stored block's columns (the blob is copied when SQLite hands it over unaligned). */
function decode(blob: Buffer): Columns {
  const n = Math.floor(blob.length / ENTRY_BYTES);
  if (blob.byteOffset % 8 === 0) return columnsOf(blob.buffer, blob.byteOffset, n);
  const copy = new Uint8Array(blob.length);
  copy.set(blob);
  return columnsOf(copy.buffer, 0, n);
}

export const blockOf = (seq: number) => Math.floor(seq / BLOCK);

/** Event type names <-> the small codes the blocks store. */
function createTypeCodes(db: Database.Database) {
  const all = db.prepare('SELECT code, name FROM event_types');
  const add = db.prepare('INSERT OR IGNORE INTO event_types (name) VALUES (?)');
  const find = db.prepare('SELECT code FROM event_types WHERE name = ?').pluck();
  let codes = new Map<string, number>();
  let names: string[] = [];
  const load = () => {
    codes = new Map();
    names = [];
    for (const { code, name } of all.all() as { code: number; name: string }[]) {
      codes.set(name, code);
      names[code] = name;
    }
  };
  load();
  return {
    code(name: string): number {
      let c = codes.get(name);
      if (c === undefined) {
        add.run(name);
        c = find.get(name) as number;
        codes.set(name, c);
        names[c] = name;
      }
      return c;
    },
    name(code: number): string {
      if (names[code] === undefined) load();
      return names[code] ?? 'unknown';
    },
    /** Forget cached codes (after a rolled-back transaction, a new code may not exist). */
    reset: load,
  };
}

export function createBlockWriter(db: Database.Database) {
  const types = createTypeCodes(db);
  const get = db.prepare('SELECT data FROM event_blocks WHERE sid = ? AND block = ?').pluck();
  const put = db.prepare('INSERT OR REPLACE INTO event_blocks (sid, block, data) VALUES (?, ?, ?)');
  const bytes = new Uint8Array(BLOCK * ENTRY_BYTES);
  const cols = columnsOf(bytes.buffer, 0, BLOCK);
  let sid = -1;
  let block = -1;
  let n = 0;

  function flush() {
    if (block < 0 || n === 0) return;
    // Packed for n lines: each column moves down to its place in an n-line block.
    // Its own memory (not the shared pool), so the float64 columns start 8-byte aligned.
    const out = Buffer.allocUnsafeSlow(n * ENTRY_BYTES);
    const dst = columnsOf(out.buffer, out.byteOffset, n);
    dst.off.set(cols.off.subarray(0, n));
    dst.ts.set(cols.ts.subarray(0, n));
    dst.len.set(cols.len.subarray(0, n));
    dst.task.set(cols.task.subarray(0, n));
    dst.type.set(cols.type.subarray(0, n));
    put.run(sid, block, out);
  }

  function open(nextSid: number, seq: number) {
    flush();
    sid = nextSid;
    block = blockOf(seq);
    n = 0;
    if (seq % BLOCK === 0) return;
    // The session's last block, partly written by an earlier ingest: continue it.
    const blob = get.get(sid, block) as Buffer | undefined;
    if (!blob) return;
    const old = decode(blob);
    n = old.off.length;
    cols.off.set(old.off);
    cols.ts.set(old.ts);
    cols.len.set(old.len);
    cols.task.set(old.task);
    cols.type.set(old.type);
  }

  return {
    add(
      lineSid: number,
      seq: number,
      taskNo: number | null,
      type: string,
      ts: number | null,
      off: number,
      len: number,
    ) {
      if (lineSid !== sid || blockOf(seq) !== block) open(lineSid, seq);
      const i = seq - block * BLOCK;
      cols.off[i] = off;
      cols.ts[i] = ts ?? NaN;
      cols.len[i] = len;
      cols.task[i] = taskNo ?? 0;
      cols.type[i] = types.code(type);
      n = i + 1;
    },
    /** Writes the open block; call before the transaction commits. */
    flush() {
      flush();
      sid = -1;
      block = -1;
      n = 0;
    },
    /** Drops what is open and the cached type codes (the transaction was rolled back). */
    reset() {
      sid = -1;
      block = -1;
      n = 0;
      types.reset();
    },
  };
}

export interface BlockScan {
  /** Lines with seq > afterSeq, up to lastSeq, in order. */
  afterSeq: number;
  lastSeq?: number;
  /** Only lines of this task ordinal. */
  taskNo?: number;
  /** Only lines of these types. */
  types?: readonly string[];
  /** Stop after this many matches. */
  limit: number;
}

export function createBlockReader(db: Database.Database) {
  const types = createTypeCodes(db);
  // Blocks are read a few at a time (not iterated: a type name lookup may query meanwhile).
  const from = db.prepare(
    'SELECT block, data FROM event_blocks WHERE sid = ? AND block >= ? AND block <= ? ORDER BY block LIMIT 16',
  );
  function* blocks(sid: number, firstBlock: number, lastBlock: number): Generator<{ block: number; data: Buffer }> {
    for (let next = firstBlock; next <= lastBlock;) {
      const rows = from.all(sid, next, lastBlock) as { block: number; data: Buffer }[];
      yield* rows;
      if (rows.length < 16) return;
      next = rows[rows.length - 1].block + 1;
    }
  }

  function entry(c: Columns, i: number, base: number): EventEntry {
    const ts = c.ts[i];
    return {
      seq: base + i,
      off: c.off[i],
      len: c.len[i],
      taskNo: c.task[i] || null,
      type: types.name(c.type[i]),
      ts: Number.isNaN(ts) ? null : ts,
    };
  }

  return {
    /** Matching lines in line order. */
    scan(sid: number, q: BlockScan): EventEntry[] {
      const out: EventEntry[] = [];
      const first = q.afterSeq + 1;
      const last = q.lastSeq ?? Number.MAX_SAFE_INTEGER;
      if (last < first || q.limit <= 0) return out;
      const wanted = q.types ? new Set(q.types) : null;
      // Whether a type code is wanted, decided once per code.
      const match = new Map<number, boolean>();
      for (const row of blocks(sid, blockOf(first), blockOf(last))) {
        const c = decode(row.data);
        const base = row.block * BLOCK;
        const start = Math.max(0, first - base);
        const end = Math.min(c.off.length, last - base + 1);
        for (let i = start; i < end; i++) {
          if (q.taskNo !== undefined && c.task[i] !== q.taskNo) continue;
          if (wanted) {
            const code = c.type[i];
            let ok = match.get(code);
            if (ok === undefined) match.set(code, (ok = wanted.has(types.name(code))));
            if (!ok) continue;
          }
          out.push(entry(c, i, base));
          if (out.length >= q.limit) return out;
        }
      }
      return out;
    },
    /** The lines at these line numbers (ascending), skipping any not indexed. */
    at(sid: number, seqs: readonly number[]): EventEntry[] {
      const out: EventEntry[] = [];
      for (let i = 0; i < seqs.length;) {
        const b = blockOf(seqs[i]);
        let j = i;
        while (j < seqs.length && blockOf(seqs[j]) === b) j++;
        for (const row of blocks(sid, b, b)) {
          const c = decode(row.data);
          for (let k = i; k < j; k++) {
            const at = seqs[k] - b * BLOCK;
            if (at < c.off.length) out.push(entry(c, at, b * BLOCK));
          }
        }
        i = j;
      }
      return out;
    },
  };
}
