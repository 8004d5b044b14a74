import type Database from 'better-sqlite3';
import type { Task, TaskState } from '../../src-shared/a2a';
import type { TraceEvent } from '../../src-shared/trace';
import { createBlockReader, type EventEntry } from './blocks';
import { taskOfCompact } from './final-task';
import { readTraceRanges, readTraceRangesAsync } from './jsonl';
import { isSparseType } from './schema';
import { createSearch, ftsQuery, type SearchHit } from './search';

export { ftsQuery, type SearchHit } from './search';

// Read side of the trace index. Everything here is a bounded query (limits, paging by line
// number), so a 1M-event session costs what one screen of it costs.

/** A session as the index knows it. */
export interface SessionSummary {
  id: string;
  capsule: string | null;
  version: string | null;
  url: string | null;
  pid: number | null;
  manifestPath: string | null;
  parentId: string | null;
  /** A fork: the recorded session, task and turn it starts from. */
  forkedFrom: { sessionId: string; taskId: string; turn: number } | null;
  driver: string | null;
  model: string | null;
  startedAt: number | null;
  endedAt: number | null;
  endReason: string | null;
  /** running (no session_end yet), ended, or interrupted (no session_end and its process is gone). */
  status: 'running' | 'ended' | 'interrupted';
  tasks: number;
  tokensIn: number;
  tokensOut: number;
  events: number;
  lastTs: number | null;
  tracePath: string | null;
  /** Bytes of a trailing partial line left out of the index (a torn last line). */
  tornBytes: number;
  /** Bytes of trace.jsonl the index has read (complete lines); with tornBytes, the file's size when last read. */
  indexedBytes: number;
  /** Complete lines skipped (trace/line.ts): not a trace event, nested too deep, too long, claiming another session. */
  badLines: number;
  deepLines: number;
  longLines: number;
  foreignLines: number;
}

/** A task as the index knows it. */
export interface TaskSummary {
  id: string;
  sessionId: string;
  ord: number;
  contextId: string | null;
  text: string | null;
  state: TaskState;
  exitStatus: string | null;
  answer: string | null;
  failure: string | null;
  turns: number;
  tokensIn: number;
  tokensOut: number;
  receivedAt: number | null;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number | null;
}

export interface SessionQuery {
  capsule?: string;
  status?: SessionSummary['status'];
  /** Epoch ms: sessions started at or after. */
  since?: number;
  until?: number;
  /** Words that must appear in the session's text (tasks, answers, inference, failures) or capsule name. */
  search?: string;
  limit?: number;
}

export interface EventQuery {
  task?: string;
  types?: string[];
  /** Events with a line number greater than this (paging). */
  afterSeq?: number;
  limit?: number;
}

export type IndexedEvent = TraceEvent & { seq: number };

export interface EventPage {
  events: IndexedEvent[];
  /** Pass as afterSeq for the next page; null at the end. */
  nextSeq: number | null;
}

export interface TraceQueries {
  listSessions(q?: SessionQuery): SessionSummary[];
  getSession(id: string): SessionSummary | undefined;
  /** The session's tasks in order, the first `limit` of them when given. */
  listTasks(sessionId: string, q?: { limit?: number }): TaskSummary[];
  /** The task as a door answers GetTask: the saved final Task, or one rebuilt from the trace. */
  getTask(taskId: string): { sessionId: string; task: Task } | undefined;
  events(sessionId: string, q?: EventQuery): EventPage;
  /** events() with the lines read off the main thread: what the Studio's commands call at run time. */
  eventsAsync(sessionId: string, q?: EventQuery): Promise<EventPage>;
  /** Text search over every session; the lines are read off the main thread. */
  search(text: string, q?: { limit?: number }): Promise<SearchHit[]>;
  /** The session a fork came from (and so on up, nearest first) and the forks made of it. */
  family(sessionId: string): SessionFamily;
}

/** A session's fork family: the sessions it descends from and the forks made of it. */
export interface SessionFamily {
  /** The session it was forked from, then that one's origin, …, at most MAX_FAMILY_DEPTH. */
  ancestors: SessionSummary[];
  /** Sessions forked from this one, oldest first, at most MAX_FAMILY_FORKS. */
  forks: SessionSummary[];
}

/** Bounds of a family answer: forks of forks deeper than this are not followed up. */
export const MAX_FAMILY_DEPTH = 16;
export const MAX_FAMILY_FORKS = 200;

function alive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const SESSION_COLUMNS = `s.id, s.capsule, s.version, s.url, s.pid, s.manifest_path AS manifestPath, s.parent_id AS parentId, s.forked_from AS forkedSession, s.forked_task AS forkedTask, s.forked_turn AS forkedTurn, s.driver, s.model,
  s.started_at AS startedAt, s.ended_at AS endedAt, s.end_reason AS endReason, s.status, s.tasks, s.tokens_in AS tokensIn,
  s.tokens_out AS tokensOut, s.events, s.last_ts AS lastTs, s.trace_path AS tracePath, s.torn_bytes AS tornBytes, s.indexed_offset AS indexedBytes, s.bad_lines AS badLines,
  s.deep_lines AS deepLines, s.long_lines AS longLines, s.foreign_lines AS foreignLines`;
const TASK_COLUMNS = `t.id, s.id AS sessionId, t.ord, t.context_id AS contextId, t.text, t.state, t.exit_status AS exitStatus, t.answer, t.failure,
  t.turns, t.tokens_in AS tokensIn, t.tokens_out AS tokensOut, t.received_at AS receivedAt, t.started_at AS startedAt,
  t.ended_at AS endedAt, t.duration_ms AS durationMs`;

/** Why the lines the index points at could not be read from the session's trace.jsonl (the source of truth). */
function unreadable(path: string, err: unknown): Error {
  return new Error(
    `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; run a sync to re-index`,
    { cause: err },
  );
}

/** The page of events: the index's rows with their lines' text, and the cursor past it. */
function pageOf(rows: readonly EventEntry[], limit: number, texts: readonly string[]): EventPage {
  const page = rows.slice(0, limit);
  const events = page.map((r, i) => ({ ...(JSON.parse(texts[i]) as TraceEvent), seq: r.seq }) as IndexedEvent);
  return { events, nextSeq: rows.length > limit ? page[page.length - 1].seq : null };
}

type SessionRow = Omit<SessionSummary, 'forkedFrom'> & {
  forkedSession: string | null;
  forkedTask: string | null;
  forkedTurn: number | null;
};

/** A row as a summary: its status checked against its process, its fork origin as one field. */
function withLiveness(row: SessionRow): SessionSummary {
  const { forkedSession, forkedTask, forkedTurn, ...rest } = row;
  const s: SessionSummary = {
    ...rest,
    forkedFrom: forkedSession ? { sessionId: forkedSession, taskId: forkedTask ?? '', turn: forkedTurn ?? 1 } : null,
  };
  return s.status === 'running' && !alive(s.pid) ? { ...s, status: 'interrupted' } : s;
}

/** A GetTask answer rebuilt from the index when the door's own Task was not saved. */
function taskFromSummary(t: TaskSummary): Task {
  return {
    id: t.id,
    ...(t.contextId ? { contextId: t.contextId } : {}),
    status: { state: t.state, ...(t.endedAt ? { timestamp: new Date(t.endedAt).toISOString() } : {}) },
    ...(t.answer
      ? {
          artifacts: [
            { artifactId: 'response', name: 'response', parts: [{ text: t.answer, mediaType: 'text/plain' }] },
          ],
        }
      : {}),
  };
}

export function createQueries(db: Database.Database): TraceQueries {
  const getSessionStmt = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`);
  const forksStmt = db.prepare(
    `SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.forked_from = ? ORDER BY s.id LIMIT ?`,
  );
  const tasksStmt = db.prepare(
    `SELECT ${TASK_COLUMNS} FROM tasks t JOIN sessions s ON s.sid = t.sid WHERE s.id = ? ORDER BY t.ord LIMIT ?`,
  );
  const taskStmt = db.prepare(
    `SELECT ${TASK_COLUMNS}, t.task_json AS taskJson FROM tasks t JOIN sessions s ON s.sid = t.sid WHERE t.id = ?`,
  );
  const sessionFileStmt = db.prepare('SELECT sid, trace_path AS path FROM sessions WHERE id = ?');
  const taskSpanStmt = db.prepare(
    'SELECT ord, first_seq AS first, last_seq AS last FROM tasks WHERE id = ? AND sid = ?',
  );
  const blocks = createBlockReader(db);
  const sparseStmt = (types: number) =>
    db
      .prepare(
        `SELECT seq FROM sparse_events WHERE sid = ? AND type IN (${Array(types).fill('?').join(', ')}) AND seq > ? ORDER BY seq LIMIT ?`,
      )
      .pluck();
  const search = createSearch(db, blocks);

  /** The rows of an events() page (one more than the limit tells whether a next page exists). */
  function eventRows(sessionId: string, q: EventQuery): { path: string; rows: EventEntry[]; limit: number } | null {
    const session = sessionFileStmt.get(sessionId) as { sid: number; path: string } | undefined;
    if (!session) return null;
    const limit = Math.max(1, Math.min(q.limit ?? 1000, 100_000));
    const after = q.afterSeq ?? -1;
    let rows: EventEntry[];
    if (q.task) {
      const task = taskSpanStmt.get(q.task, session.sid) as
        { ord: number; first: number | null; last: number | null } | undefined;
      if (!task) return null;
      // The task's span of lines bounds the walk; the task ordinal picks its lines out of it.
      const first = task.first ?? 0;
      rows = blocks.scan(session.sid, {
        afterSeq: Math.max(after, first - 1),
        lastSeq: task.last ?? first,
        taskNo: task.ord,
        types: q.types?.length ? q.types : undefined,
        limit: limit + 1,
      });
    } else if (q.types?.length && q.types.every(isSparseType)) {
      // Only rare types asked for: sparse_events lists their lines, so a 1M-event session is not
      // walked for them.
      const seqs = sparseStmt(q.types.length).all(session.sid, ...q.types, after, limit + 1) as number[];
      rows = blocks.at(session.sid, seqs);
    } else {
      rows = blocks.scan(session.sid, {
        afterSeq: after,
        types: q.types?.length ? q.types : undefined,
        limit: limit + 1,
      });
    }
    return { path: session.path, rows, limit };
  }

  return {
    listSessions(q = {}) {
      const where: string[] = [];
      const args: unknown[] = [];
      if (q.capsule) {
        where.push('s.capsule = ?');
        args.push(q.capsule);
      }
      if (q.status === 'ended') where.push("s.status = 'ended'");
      else if (q.status) where.push("s.status = 'running'");
      if (q.since !== undefined) {
        where.push('s.started_at >= ?');
        args.push(q.since);
      }
      if (q.until !== undefined) {
        where.push('s.started_at <= ?');
        args.push(q.until);
      }
      if (q.search !== undefined) {
        const match = ftsQuery(q.search);
        if (!match) return [];
        where.push(
          `(s.sid IN (SELECT rowid / 4294967296 FROM events_fts WHERE events_fts MATCH ?) OR s.capsule LIKE ?)`,
        );
        args.push(match, `%${q.search}%`);
      }
      const sql = `SELECT ${SESSION_COLUMNS} FROM sessions s ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY s.id DESC`;
      let rows = (db.prepare(sql).all(...args) as SessionRow[]).map(withLiveness);
      if (q.status && q.status !== 'ended') rows = rows.filter((r) => r.status === q.status);
      return q.limit ? rows.slice(0, q.limit) : rows;
    },
    getSession(id) {
      const row = getSessionStmt.get(id) as SessionRow | undefined;
      return row && withLiveness(row);
    },
    listTasks: (sessionId, q = {}) => tasksStmt.all(sessionId, q.limit ?? -1) as TaskSummary[],
    getTask(taskId) {
      const row = taskStmt.get(taskId) as (TaskSummary & { taskJson: string | null }) | undefined;
      if (!row) return undefined;
      const { taskJson, ...summary } = row;
      // task_json is the final task, or its compact form (task_end's `final`).
      const saved: unknown = taskJson ? JSON.parse(taskJson) : undefined;
      const task = Array.isArray(saved) ? taskOfCompact(saved) : (saved as Task | undefined);
      return { sessionId: row.sessionId, task: task ?? taskFromSummary(summary) };
    },
    events(sessionId, q = {}) {
      const found = eventRows(sessionId, q);
      if (!found) return { events: [], nextSeq: null };
      let texts: string[];
      try {
        texts = readTraceRanges(found.path, found.rows.slice(0, found.limit));
      } catch (err) {
        throw unreadable(found.path, err);
      }
      return pageOf(found.rows, found.limit, texts);
    },
    async eventsAsync(sessionId, q = {}) {
      const found = eventRows(sessionId, q);
      if (!found) return { events: [], nextSeq: null };
      const texts = await readTraceRangesAsync(found.path, found.rows.slice(0, found.limit)).catch((err: unknown) => {
        throw unreadable(found.path, err);
      });
      return pageOf(found.rows, found.limit, texts);
    },
    search,
    family(sessionId) {
      const ancestors: SessionSummary[] = [];
      const seen = new Set([sessionId]);
      let at = (getSessionStmt.get(sessionId) as SessionRow | undefined)?.forkedSession;
      while (at && !seen.has(at) && ancestors.length < MAX_FAMILY_DEPTH) {
        seen.add(at);
        const row = getSessionStmt.get(at) as SessionRow | undefined;
        if (!row) break;
        ancestors.push(withLiveness(row));
        at = row.forkedSession;
      }
      const forks = (forksStmt.all(sessionId, MAX_FAMILY_FORKS) as SessionRow[]).map(withLiveness);
      return { ancestors, forks };
    },
  };
}
