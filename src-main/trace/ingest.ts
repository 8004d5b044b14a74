import type Database from 'better-sqlite3';
import type { TraceLine } from './jsonl';
import { ftsRowid } from './schema';

// Turns trace lines into index rows: one events row per line, the session and task summaries
// the list views need, and FTS rows for the text people search. Runs inside the caller's
// transaction; statements are prepared once per database.

/** What an ingest keeps in memory for one session between lines (written back once per batch). */
export interface SessionCounters {
  sid: number;
  events: number;
  tasks: number;
  tokensIn: number;
  tokensOut: number;
  lastTs: number | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const time = (v: unknown): number | null => {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
};

/** The searchable text of an event, or null when it carries none. */
export function searchableText(e: Record<string, unknown>): string | null {
  switch (e.event_type) {
    case 'a2a_task_received':
    case 'inference':
      return str(e.text) || null;
    case 'task_end':
      return str(e.answer) || null;
    case 'task_failed':
      return [str(e.cause), str(e.message)].filter(Boolean).join(': ') || null;
    case 'tool_result':
      return e.ok === false ? str(e.result) : null;
    default:
      return null;
  }
}

/** Token and turn counts of one task, added up in memory and written once per batch. */
interface PendingTurns {
  turns: number;
  tokensIn: number;
  tokensOut: number;
}

export function createIngester(db: Database.Database) {
  const s = {
    event: db.prepare('INSERT OR REPLACE INTO events (sid, seq, task_no, type, ts, off, len) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    fts: db.prepare('INSERT INTO events_fts (rowid, text) VALUES (?, ?)'),
    sessionStart: db.prepare(
      `UPDATE sessions SET capsule = ?, version = ?, url = ?, pid = ?, manifest_path = ?, parent_id = ?, driver = ?, model = ?,
       started_at = coalesce(started_at, ?) WHERE sid = ?`,
    ),
    sessionEnd: db.prepare(
      `UPDATE sessions SET ended_at = ?, end_reason = ?, status = 'ended',
       tokens_in = max(tokens_in, ?), tokens_out = max(tokens_out, ?) WHERE sid = ?`,
    ),
    counters: db.prepare(
      'UPDATE sessions SET events = ?, tasks = ?, tokens_in = max(tokens_in, ?), tokens_out = max(tokens_out, ?), last_ts = ?, started_at = coalesce(started_at, ?) WHERE sid = ?',
    ),
    taskOrd: db.prepare('SELECT ord FROM tasks WHERE id = ?').pluck(),
    taskNew: db.prepare('INSERT OR IGNORE INTO tasks (id, sid, ord, context_id, received_at, first_seq) VALUES (?, ?, ?, ?, ?, ?)'),
    lastSeq: db.prepare('UPDATE tasks SET last_seq = max(coalesce(last_seq, 0), ?) WHERE sid = ? AND ord = ?'),
    taskReceived: db.prepare('UPDATE tasks SET text = ?, context_id = coalesce(?, context_id) WHERE id = ?'),
    taskStart: db.prepare(
      `UPDATE tasks SET started_at = coalesce(started_at, ?), context_id = coalesce(?, context_id),
       state = CASE WHEN state = 'TASK_STATE_SUBMITTED' THEN 'TASK_STATE_WORKING' ELSE state END WHERE id = ?`,
    ),
    turns: db.prepare('UPDATE tasks SET turns = max(turns, ?), tokens_in = tokens_in + ?, tokens_out = tokens_out + ? WHERE id = ?'),
    failed: db.prepare('UPDATE tasks SET failure = ? WHERE id = ?'),
    end: db.prepare(
      `UPDATE tasks SET state = coalesce(?, state), exit_status = ?, answer = coalesce(?, answer), turns = max(turns, ?),
       tokens_in = max(tokens_in, ?), tokens_out = max(tokens_out, ?), duration_ms = ?, ended_at = ?,
       task_json = coalesce(?, task_json) WHERE id = ?`,
    ),
  };
  // Per batch: task id -> ordinal, and inference counts not yet written.
  const ords = new Map<string, number>();
  const pending = new Map<string, PendingTurns>();
  const lastSeqs = new Map<number, number>();

  function taskNo(c: SessionCounters, id: string, context: string | null, ts: number | null, seq: number): number {
    let ord = ords.get(id);
    if (ord === undefined) {
      ord = s.taskOrd.get(id) as number | undefined;
      if (ord === undefined) {
        ord = c.tasks + 1;
        s.taskNew.run(id, c.sid, ord, context, ts, seq);
        c.tasks = ord;
      }
      ords.set(id, ord);
    }
    lastSeqs.set(ord, seq);
    return ord;
  }

  function writeTurns(id: string) {
    const p = pending.get(id);
    if (!p) return;
    s.turns.run(p.turns, p.tokensIn, p.tokensOut, id);
    pending.delete(id);
  }

  function apply(c: SessionCounters, line: TraceLine): void {
    const e = line.event;
    const seq = c.events++;
    const type = e.event_type as string;
    const taskId = str(e.task_id);
    const ts = time(e.ts);
    if (ts !== null) c.lastTs = ts;
    const no = taskId ? taskNo(c, taskId, str(e.context_id), ts, seq) : null;
    s.event.run(c.sid, seq, no, type, ts, line.offset, line.bytes);
    const text = searchableText(e);
    if (text) s.fts.run(ftsRowid(c.sid, seq), text);
    switch (type) {
      case 'session_start':
        s.sessionStart.run(str(e.capsule), str(e.version), str(e.url), num(e.pid) || null, str(e.manifest_path), str(e.parent_session_id), str(e.driver), str(e.model), ts, c.sid);
        return;
      case 'session_end':
        s.sessionEnd.run(ts, str(e.reason), num(e.tokens_in), num(e.tokens_out), c.sid);
        return;
    }
    if (!taskId) return;
    switch (type) {
      case 'a2a_task_received':
        s.taskReceived.run(str(e.text), str(e.context_id), taskId);
        return;
      case 'task_start':
        s.taskStart.run(ts, str(e.context_id), taskId);
        return;
      case 'inference': {
        c.tokensIn += num(e.tokens_in);
        c.tokensOut += num(e.tokens_out);
        let p = pending.get(taskId);
        if (!p) pending.set(taskId, (p = { turns: 0, tokensIn: 0, tokensOut: 0 }));
        p.turns = Math.max(p.turns, num(e.turn));
        p.tokensIn += num(e.tokens_in);
        p.tokensOut += num(e.tokens_out);
        return;
      }
      case 'task_failed':
        s.failed.run([str(e.cause), str(e.message)].filter(Boolean).join(': '), taskId);
        return;
      case 'task_end': {
        writeTurns(taskId);
        const task = e.task && typeof e.task === 'object' ? JSON.stringify(e.task) : null;
        s.end.run(str(e.state), str(e.exit_status), str(e.answer), num(e.turns), num(e.tokens_in), num(e.tokens_out), num(e.duration_ms) || null, ts, task, taskId);
        return;
      }
    }
  }

  return {
    /** Applies a batch of lines, then writes what it kept in memory to the session and task rows. */
    ingest(c: SessionCounters, lines: readonly TraceLine[]) {
      ords.clear();
      pending.clear();
      lastSeqs.clear();
      for (const line of lines) apply(c, line);
      for (const id of [...pending.keys()]) writeTurns(id);
      for (const [ord, seq] of lastSeqs) s.lastSeq.run(seq, c.sid, ord);
      const firstTs = lines.length ? time(lines[0].event.ts) : null;
      s.counters.run(c.events, c.tasks, c.tokensIn, c.tokensOut, c.lastTs, firstTs, c.sid);
    },
  };
}
