import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { createIngester, type SessionCounters } from './ingest';
import { parseEvent, readRawTraceLines } from './jsonl';
import { noSkippedLines, type SkippedLines } from './line';
import { createQueries, type TraceQueries } from './queries';
import { findTraceFiles } from './records';
import { SCHEMA, SCHEMA_VERSION } from './schema';
import type { Task } from '../../src-shared/a2a';

// The trace index (studio.db): a SQLite copy of every session's trace.jsonl for browsing and
// search. The jsonl files are the truth; the index follows them by byte offset, and when it is
// missing, stale or corrupt it is rebuilt from them.

export interface TraceStoreOptions {
  /** Database file, or ':memory:'. */
  path: string;
  /** Path to a better_sqlite3.node built for the host ABI (Electron ships its own). */
  nativeBinding?: string;
}

/** What one ingest of one trace file did. */
export interface IngestReport {
  sessionId: string;
  path: string;
  /** Events added by this ingest. */
  added: number;
  /** The index was dropped for this session and rebuilt (the file shrank or was replaced). */
  rebuilt: boolean;
  /** A trailing partial line (a crash mid-write, or a write in progress) left out for now. */
  torn?: { offset: number; bytes: number };
  /** Complete lines this ingest skipped, by reason (trace/line.ts). */
  skipped: SkippedLines;
}

export interface SyncReport {
  files: number;
  added: number;
  reports: IngestReport[];
  /** The database was unreadable and was recreated. */
  recovered: boolean;
}

/** Called after each committed batch: bytes of the file indexed so far, of its size. */
export type IngestProgress = (path: string, done: number, total: number) => void;

export interface TraceStore extends TraceQueries {
  readonly path: string;
  /** Brings the index up to date with one trace.jsonl (incremental by byte offset). */
  ingestFile(tracePath: string, onProgress?: IngestProgress): IngestReport;
  /** Ingests every trace.jsonl under a records root. */
  syncRecords(root: string, onProgress?: IngestProgress): SyncReport;
  /** Keeps a door's final Task JSON so GetTask answers after a restart. */
  saveTask(sessionId: string, task: Task): void;
  dispose(): void;
}

// One transaction per batch: big enough that commits are rare, small enough to hold in memory
// and to show the first screen of a big session soon after its indexing starts.
const BATCH_BYTES = 8 * 1024 * 1024;
const isCorrupt = (err: unknown) => /^SQLITE_(CORRUPT|NOTADB)/.test((err as { code?: string }).code ?? '');

function openDatabase(path: string, nativeBinding: string | undefined): Database.Database {
  const db = new Database(path, nativeBinding ? { nativeBinding } : {});
  try {
    db.pragma('busy_timeout = 5000');
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    // The index is rebuilt from trace.jsonl whenever it is lost or damaged, so it need not survive
    // a power cut on its own: no fsync on the ingest path.
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -65536');
    // Checked and migrated in one write transaction: the Studio's reader and the index worker may
    // open the same database at once.
    db.transaction(() => {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version === SCHEMA_VERSION) return;
      if (version !== 0) dropAll(db);
      db.exec(SCHEMA);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }).immediate();
    db.prepare('SELECT count(*) FROM sessions').get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function dropAll(db: Database.Database) {
  for (const t of [
    'events_fts',
    'text_runs',
    'sparse_events',
    'events',
    'event_blocks',
    'event_types',
    'tasks',
    'sessions',
  ])
    db.exec(`DROP TABLE IF EXISTS ${t}`);
}

/** True when `offset` begins a line: a file replaced by another as long or longer is caught here. */
function lineStartsAt(path: string, offset: number): boolean {
  if (offset === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(1);
    return readSync(fd, b, 0, 1, offset - 1) === 1 && b[0] === 10;
  } finally {
    closeSync(fd);
  }
}

function removeDatabaseFiles(path: string) {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
}

export function createTraceStore(options: TraceStoreOptions): TraceStore {
  const file = options.path === ':memory:' ? ':memory:' : resolve(options.path);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let recovered = false;
  let db: Database.Database;
  try {
    db = openDatabase(file, options.nativeBinding);
  } catch (err) {
    if (file === ':memory:' || !isCorrupt(err)) throw err;
    removeDatabaseFiles(file);
    db = openDatabase(file, options.nativeBinding);
    recovered = true;
  }
  let ingester = createIngester(db);
  let queries = createQueries(db);

  // A database that goes bad while open (disk trouble, a foreign writer) is rebuilt the same way.
  function recover() {
    db.close();
    removeDatabaseFiles(file);
    db = openDatabase(file, options.nativeBinding);
    ingester = createIngester(db);
    queries = createQueries(db);
    recovered = true;
  }

  function sessionRow(id: string) {
    return db
      .prepare(
        'SELECT sid, id, trace_path, indexed_offset, events, tasks, tokens_in, tokens_out, last_ts FROM sessions WHERE id = ?',
      )
      .get(id) as
      | {
          sid: number;
          id: string;
          trace_path: string | null;
          indexed_offset: number;
          events: number;
          tasks: number;
          tokens_in: number;
          tokens_out: number;
          last_ts: number | null;
        }
      | undefined;
  }

  function purge(sid: number) {
    db.prepare('DELETE FROM events_fts WHERE rowid BETWEEN ? AND ?').run(
      sid * 4294967296,
      sid * 4294967296 + 4294967295,
    );
    db.prepare('DELETE FROM text_runs WHERE sid = ?').run(sid);
    db.prepare('DELETE FROM sparse_events WHERE sid = ?').run(sid);
    db.prepare('DELETE FROM event_blocks WHERE sid = ?').run(sid);
    db.prepare('DELETE FROM tasks WHERE sid = ?').run(sid);
    db.prepare('DELETE FROM sessions WHERE sid = ?').run(sid);
  }

  // One batch: re-reads the offset inside an IMMEDIATE transaction, so two processes syncing
  // the same records never index a line twice.
  const ingestBatch = (tracePath: string, report: IngestReport, progress: { done: number; total: number }) =>
    db
      .transaction((): boolean => {
        const size = statSync(tracePath).size;
        const row = db.prepare('SELECT id FROM sessions WHERE trace_path = ?').get(tracePath) as
          { id: string } | undefined;
        let sessionRowNow = row ? sessionRow(row.id) : undefined;
        if (
          sessionRowNow &&
          (size < sessionRowNow.indexed_offset || !lineStartsAt(tracePath, sessionRowNow.indexed_offset))
        ) {
          purge(sessionRowNow.sid);
          sessionRowNow = undefined;
          report.rebuilt = true;
        }
        const start = sessionRowNow?.indexed_offset ?? 0;
        const chunk = readRawTraceLines(tracePath, start, BATCH_BYTES);
        report.torn = chunk.torn;
        if (!sessionRowNow) {
          if (!chunk.lines.length) return false;
          // The session id is on its first event line that names one (the line readers take a file's
          // session from); a file with none is named by its folder.
          let first: unknown;
          for (const line of chunk.lines) {
            first = parseEvent(line.text)?.session_id;
            if (typeof first === 'string') break;
          }
          const id = typeof first === 'string' ? first : basename(dirname(tracePath));
          const other = sessionRow(id);
          if (other) {
            // The same session indexed from another path (moved, or a copy): follow this file.
            purge(other.sid);
            report.rebuilt = true;
          }
          db.prepare('INSERT INTO sessions (id, trace_path) VALUES (?, ?)').run(id, tracePath);
          sessionRowNow = sessionRow(id)!;
        }
        report.sessionId = sessionRowNow.id;
        const c: SessionCounters = {
          sid: sessionRowNow.sid,
          id: sessionRowNow.id,
          events: sessionRowNow.events,
          tasks: sessionRowNow.tasks,
          tokensIn: sessionRowNow.tokens_in,
          tokensOut: sessionRowNow.tokens_out,
          lastTs: sessionRowNow.last_ts,
        };
        const { added, skipped } = ingester.ingest(c, chunk.lines);
        skipped.long += chunk.long;
        for (const k of Object.keys(skipped) as (keyof SkippedLines)[]) report.skipped[k] += skipped[k];
        db.prepare(
          'UPDATE sessions SET indexed_offset = ?, torn_bytes = ?, bad_lines = bad_lines + ?, deep_lines = deep_lines + ?, long_lines = long_lines + ?, foreign_lines = foreign_lines + ? WHERE sid = ?',
        ).run(chunk.end, chunk.torn?.bytes ?? 0, skipped.bad, skipped.deep, skipped.long, skipped.foreign, c.sid);
        report.added += added;
        progress.done = chunk.end;
        progress.total = size;
        return chunk.end < size && !chunk.torn;
      })
      .immediate();

  /**
   * True when the index holds the whole file as it stands (same size, still a line boundary where
   * it stopped): the answer needs no write transaction. Followed files and syncs ask this most of
   * the time.
   */
  function unchanged(tracePath: string, report: IngestReport): boolean {
    const row = db
      .prepare('SELECT id, indexed_offset AS offset, torn_bytes AS torn FROM sessions WHERE trace_path = ?')
      .get(tracePath) as { id: string; offset: number; torn: number } | undefined;
    if (!row || row.offset === 0) return false;
    let size: number;
    try {
      size = statSync(tracePath).size;
    } catch {
      return false; // the transaction reports it
    }
    if (size !== row.offset + row.torn || !lineStartsAt(tracePath, row.offset)) return false;
    report.sessionId = row.id;
    if (row.torn) report.torn = { offset: row.offset, bytes: row.torn };
    return true;
  }

  function ingestFile(path: string, onProgress?: IngestProgress): IngestReport {
    const tracePath = resolve(path);
    const report: IngestReport = {
      sessionId: basename(dirname(tracePath)),
      path: tracePath,
      added: 0,
      rebuilt: false,
      skipped: noSkippedLines(),
    };
    const progress = { done: 0, total: 0 };
    for (let attempt = 0; ; attempt++) {
      try {
        if (unchanged(tracePath, report)) return report;
        for (let more = true; more;) {
          more = ingestBatch(tracePath, report, progress);
          onProgress?.(tracePath, progress.done, progress.total);
        }
        return report;
      } catch (err) {
        if (attempt > 0 || !isCorrupt(err)) throw err;
        recover();
      }
    }
  }

  return {
    path: file,
    ingestFile,
    syncRecords(root, onProgress) {
      const dir = resolve(root);
      const files = findTraceFiles(dir);
      // Sessions whose records folder was deleted leave the index too.
      const found = new Set(files);
      const indexed = db
        .prepare("SELECT sid, trace_path AS path FROM sessions WHERE trace_path LIKE ? ESCAPE '\\'")
        .all(`${dir.replace(/[\\%_]/g, '\\$&')}/%`) as { sid: number; path: string }[];
      const gone = indexed.filter((r) => !found.has(r.path));
      if (gone.length) db.transaction(() => gone.forEach((r) => purge(r.sid)))();
      const reports = files.map((f) => ingestFile(f, onProgress));
      return { files: files.length, added: reports.reduce((n, r) => n + r.added, 0), reports, recovered };
    },
    saveTask(sessionId, task) {
      const row = sessionRow(sessionId);
      if (!row) return;
      db.transaction(() => {
        const known = db
          .prepare('UPDATE tasks SET state = ?, task_json = ? WHERE id = ?')
          .run(task.status.state, JSON.stringify(task), task.id).changes;
        if (known) return;
        // A task the trace has not shown yet takes the next ordinal, as its trace lines will find it.
        db.prepare('UPDATE sessions SET tasks = tasks + 1 WHERE sid = ?').run(row.sid);
        db.prepare('INSERT INTO tasks (id, sid, ord, context_id, state, task_json) VALUES (?, ?, ?, ?, ?, ?)').run(
          task.id,
          row.sid,
          row.tasks + 1,
          task.contextId ?? null,
          task.status.state,
          JSON.stringify(task),
        );
      }).immediate();
    },
    listSessions: (q) => queries.listSessions(q),
    getSession: (id) => queries.getSession(id),
    listTasks: (id, q) => queries.listTasks(id, q),
    getTask: (id) => queries.getTask(id),
    events: (id, q) => queries.events(id, q),
    eventsAsync: (id, q) => queries.eventsAsync(id, q),
    search: (text, q) => queries.search(text, q),
    family: (id) => queries.family(id),
    dispose() {
      if (db.open) db.close();
    },
  };
}
