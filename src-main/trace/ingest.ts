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

const TASK_COLUMNS = [
  'id', 'sid', 'ord', 'context_id', 'text', 'state', 'exit_status', 'answer', 'failure', 'turns', 'tokens_in', 'tokens_out',
  'received_at', 'started_at', 'ended_at', 'duration_ms', 'first_seq', 'last_seq', 'task_json',
] as const;

/** A tasks row, kept in memory while a batch touches it and written once at the end of the batch. */
type TaskRow = { [K in (typeof TASK_COLUMNS)[number]]: K extends 'id' | 'state' ? string : string | number | null } & {
  ord: number;
  turns: number;
  tokens_in: number;
  tokens_out: number;
};

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
    taskGet: db.prepare(`SELECT ${TASK_COLUMNS.join(', ')} FROM tasks WHERE id = ?`),
    taskPut: db.prepare(`INSERT OR REPLACE INTO tasks (${TASK_COLUMNS.join(', ')}) VALUES (${TASK_COLUMNS.map((c) => `@${c}`).join(', ')})`),
  };
  const touched = new Map<string, TaskRow>();

  function taskRow(c: SessionCounters, id: string, seq: number, ts: number | null): TaskRow {
    let t = touched.get(id);
    if (!t) {
      t = (s.taskGet.get(id) as TaskRow | undefined) ?? {
        id,
        sid: c.sid,
        ord: ++c.tasks,
        context_id: null,
        text: null,
        state: 'TASK_STATE_SUBMITTED',
        exit_status: null,
        answer: null,
        failure: null,
        turns: 0,
        tokens_in: 0,
        tokens_out: 0,
        received_at: ts,
        started_at: null,
        ended_at: null,
        duration_ms: null,
        first_seq: seq,
        last_seq: seq,
        task_json: null,
      };
      touched.set(id, t);
    }
    t.last_seq = seq;
    return t;
  }

  function apply(c: SessionCounters, line: TraceLine): void {
    const e = line.event;
    const seq = c.events++;
    const type = e.event_type as string;
    const taskId = str(e.task_id);
    const ts = time(e.ts);
    if (ts !== null) c.lastTs = ts;
    const t = taskId ? taskRow(c, taskId, seq, ts) : null;
    s.event.run(c.sid, seq, t ? t.ord : null, type, ts, line.offset, line.bytes);
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
    if (!t) return;
    const context = str(e.context_id);
    if (context) t.context_id = context;
    switch (type) {
      case 'a2a_task_received':
        t.text = str(e.text);
        return;
      case 'task_start':
        t.started_at ??= ts;
        if (t.state === 'TASK_STATE_SUBMITTED') t.state = 'TASK_STATE_WORKING';
        return;
      case 'inference':
        c.tokensIn += num(e.tokens_in);
        c.tokensOut += num(e.tokens_out);
        t.turns = Math.max(t.turns, num(e.turn));
        t.tokens_in += num(e.tokens_in);
        t.tokens_out += num(e.tokens_out);
        return;
      case 'task_failed':
        t.failure = [str(e.cause), str(e.message)].filter(Boolean).join(': ');
        return;
      case 'task_end':
        t.state = str(e.state) ?? t.state;
        t.exit_status = str(e.exit_status);
        t.answer = str(e.answer) ?? t.answer;
        t.turns = Math.max(t.turns, num(e.turns));
        t.tokens_in = Math.max(t.tokens_in, num(e.tokens_in));
        t.tokens_out = Math.max(t.tokens_out, num(e.tokens_out));
        t.duration_ms = num(e.duration_ms) || null;
        t.ended_at = ts;
        if (e.task && typeof e.task === 'object') t.task_json = JSON.stringify(e.task);
        return;
    }
  }

  return {
    /** Applies a batch of lines, then writes the touched tasks and the session counters once. */
    ingest(c: SessionCounters, lines: readonly TraceLine[]) {
      touched.clear();
      for (const line of lines) apply(c, line);
      for (const t of touched.values()) s.taskPut.run(t);
      touched.clear();
      const firstTs = lines.length ? time(lines[0].event.ts) : null;
      s.counters.run(c.events, c.tasks, c.tokensIn, c.tokensOut, c.lastTs, firstTs, c.sid);
    },
  };
}
