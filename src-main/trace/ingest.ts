import type Database from 'better-sqlite3';
import { createBlockWriter } from './blocks';
import type { RawTraceLine } from './jsonl';
import { noSkippedLines, parseTraceLine, shallowText, type SkippedLines, type SkipReason } from './line';
import { scanLineHead, scanLineType, timestampMs } from './line-scan';
import { ftsRowid, isSparseType } from './schema';

// Turns trace lines into index rows: one events row per line, the session and task summaries
// the list views need, and FTS rows for the text people search. Runs inside the caller's
// transaction; statements are prepared once per database.
//
// Ingest must keep up with 100k events/s (docs/performance.md), so: lines are stored a block at a
// time (blocks.ts), only lines whose fields the index needs are JSON-parsed (the others are read by a
// cheap scan of the line head), and a full-text row holds the text of a run of up to TEXT_GROUP
// consecutive text-carrying lines (task text, answers, failures, inference text) rather than one
// line: FTS5 then records each word once per run instead of once per line. Search narrows a
// matching run back to the lines themselves (queries.ts).

/** What an ingest keeps in memory for one session between lines (written back once per batch). */
export interface SessionCounters {
  sid: number;
  /** The session's id: a line claiming another is skipped. */
  id: string;
  events: number;
  tasks: number;
  tokensIn: number;
  tokensOut: number;
  lastTs: number | null;
  /** Time of the batch's first event (set by ingest). */
  firstTs?: number | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const time = timestampMs;

/** Event types whose fields (beyond type, time and task) the index reads: these lines are parsed. */
const PARSED_TYPES = new Set([
  'session_start',
  'session_end',
  'a2a_task_received',
  'task_start',
  'inference',
  'task_failed',
  'task_end',
]);

/** Types whose events may carry searchable text (keep in step with searchableText). */
export const TEXT_TYPES = ['a2a_task_received', 'inference', 'task_end', 'task_failed', 'tool_result'] as const;

/** True when a line of this type must be parsed: its fields feed the index, or it may carry text. */
function needsParse(type: string, text: string): boolean {
  return (
    PARSED_TYPES.has(type) || text.includes('"context_id":') || (type === 'tool_result' && text.includes('"ok":false'))
  );
}

/** Text-carrying lines per full-text row (a run never spans two batches). */
export const TEXT_GROUP = 64;

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
  'id',
  'sid',
  'ord',
  'context_id',
  'text',
  'state',
  'exit_status',
  'answer',
  'failure',
  'turns',
  'tokens_in',
  'tokens_out',
  'received_at',
  'started_at',
  'ended_at',
  'duration_ms',
  'first_seq',
  'last_seq',
  'task_json',
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
    fts: db.prepare('INSERT INTO events_fts (rowid, text) VALUES (?, ?)'),
    sparse: db.prepare('INSERT OR REPLACE INTO sparse_events (sid, type, seq) VALUES (?, ?, ?)'),
    textRun: db.prepare('INSERT OR REPLACE INTO text_runs (sid, first_seq, last_seq) VALUES (?, ?, ?)'),
    sessionStart: db.prepare(
      `UPDATE sessions SET capsule = ?, version = ?, url = ?, pid = ?, manifest_path = ?, parent_id = ?, driver = ?, model = ?,
       forked_from = ?, forked_task = ?, forked_turn = ?, started_at = coalesce(started_at, ?) WHERE sid = ?`,
    ),
    sessionEnd: db.prepare(
      `UPDATE sessions SET ended_at = ?, end_reason = ?, status = 'ended',
       tokens_in = max(tokens_in, ?), tokens_out = max(tokens_out, ?) WHERE sid = ?`,
    ),
    counters: db.prepare(
      'UPDATE sessions SET events = ?, tasks = ?, tokens_in = max(tokens_in, ?), tokens_out = max(tokens_out, ?), last_ts = ?, started_at = coalesce(started_at, ?) WHERE sid = ?',
    ),
    // Positional binds and raw rows: named ones cost a task row several microseconds more.
    taskGet: db.prepare(`SELECT ${TASK_COLUMNS.join(', ')} FROM tasks WHERE id = ?`).raw(),
    taskPut: db.prepare(
      `INSERT OR REPLACE INTO tasks (${TASK_COLUMNS.join(', ')}) VALUES (${TASK_COLUMNS.map(() => '?').join(', ')})`,
    ),
  };
  const touched = new Map<string, TaskRow>();
  const blocks = createBlockWriter(db);
  /** The run of text-carrying lines not yet written to the full-text index (distinct texts). */
  let run: { sid: number; first: number; last: number; lines: number; texts: Set<string> } | null = null;

  function flushText() {
    if (!run) return;
    s.fts.run(ftsRowid(run.sid, run.first), [...run.texts].join('\n'));
    s.textRun.run(run.sid, run.first, run.last);
    run = null;
  }

  function taskRow(c: SessionCounters, id: string, seq: number, ts: number | null): TaskRow {
    let t = touched.get(id);
    if (!t) {
      const stored = s.taskGet.get(id) as unknown[] | undefined;
      t = stored
        ? (Object.fromEntries(TASK_COLUMNS.map((col, i) => [col, stored[i]])) as TaskRow)
        : {
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

  /** Indexes one line; why it was skipped when it was (line.ts says which lines a reader takes). */
  function apply(c: SessionCounters, line: RawTraceLine): SkipReason | undefined {
    const first = scanLineType(line.text);
    // A line read only by its head is stored unparsed and printed later: it must be shallow too.
    const head =
      first !== null && !needsParse(first, line.text) && shallowText(line.text) ? scanLineHead(line.text) : null;
    let e: Record<string, unknown> | null = null;
    let type: string;
    let taskId: string | null;
    let ts: number | null;
    if (head) {
      if (head.sessionId !== null && head.sessionId !== c.id) return 'foreign';
      type = head.type;
      taskId = head.taskId;
      ts = time(head.ts);
    } else {
      const parsed = parseTraceLine(line.text);
      if (typeof parsed === 'string') return parsed;
      if (typeof parsed.session_id === 'string' && parsed.session_id !== c.id) return 'foreign';
      e = parsed;
      type = e.event_type as string;
      taskId = str(e.task_id);
      ts = time(e.ts);
    }
    const seq = c.events++;
    if (ts !== null) {
      c.lastTs = ts;
      c.firstTs ??= ts;
    }
    const t = taskId ? taskRow(c, taskId, seq, ts) : null;
    blocks.add(c.sid, seq, t ? t.ord : null, type, ts, line.offset, line.bytes);
    if (isSparseType(type)) s.sparse.run(c.sid, type, seq);
    if (!e) return undefined;
    const text = searchableText(e);
    if (text) {
      if (!run) run = { sid: c.sid, first: seq, last: seq, lines: 0, texts: new Set() };
      run.texts.add(text);
      run.last = seq;
      if (++run.lines >= TEXT_GROUP) flushText();
    }
    switch (type) {
      case 'session_start': {
        const fork =
          e.forked_from && typeof e.forked_from === 'object' ? (e.forked_from as Record<string, unknown>) : {};
        s.sessionStart.run(
          str(e.capsule),
          str(e.version),
          str(e.url),
          num(e.pid) || null,
          str(e.manifest_path),
          str(e.parent_session_id),
          str(e.driver),
          str(e.model),
          str(fork.session_id),
          str(fork.task_id),
          num(fork.turn) || null,
          ts,
          c.sid,
        );
        return undefined;
      }
      case 'session_end':
        s.sessionEnd.run(ts, str(e.reason), num(e.tokens_in), num(e.tokens_out), c.sid);
        return undefined;
    }
    if (!t) return undefined;
    const context = str(e.context_id);
    if (context) t.context_id = context;
    switch (type) {
      case 'a2a_task_received':
        t.text = str(e.text);
        return undefined;
      case 'task_start':
        t.started_at ??= ts;
        if (t.state === 'TASK_STATE_SUBMITTED') t.state = 'TASK_STATE_WORKING';
        return undefined;
      case 'inference':
        c.tokensIn += num(e.tokens_in);
        c.tokensOut += num(e.tokens_out);
        t.turns = Math.max(t.turns, num(e.turn));
        t.tokens_in += num(e.tokens_in);
        t.tokens_out += num(e.tokens_out);
        return undefined;
      case 'task_failed':
        t.failure = [str(e.cause), str(e.message)].filter(Boolean).join(': ');
        return undefined;
      case 'task_end':
        t.state = str(e.state) ?? t.state;
        t.exit_status = str(e.exit_status);
        t.answer = str(e.answer) ?? t.answer;
        t.turns = Math.max(t.turns, num(e.turns));
        t.tokens_in = Math.max(t.tokens_in, num(e.tokens_in));
        t.tokens_out = Math.max(t.tokens_out, num(e.tokens_out));
        t.duration_ms = num(e.duration_ms) || null;
        t.ended_at = ts;
        // The final task: `final` (compact, expanded when read), or `task` as older sessions wrote it.
        if (Array.isArray(e.final)) t.task_json = JSON.stringify(e.final);
        else if (e.task && typeof e.task === 'object') t.task_json = JSON.stringify(e.task);
        return undefined;
    }
    return undefined;
  }

  return {
    /**
     * Applies a batch of lines, then writes the touched tasks, their text and the session counters
     * once. Returns how many lines were events and the others, skipped, by reason.
     */
    ingest(c: SessionCounters, lines: readonly RawTraceLine[]): { added: number; skipped: SkippedLines } {
      touched.clear();
      run = null;
      c.firstTs = null;
      const skipped = noSkippedLines();
      let added = 0;
      try {
        for (const line of lines) {
          const reason = apply(c, line);
          if (reason) skipped[reason]++;
          else added++;
        }
        blocks.flush();
        for (const t of touched.values()) s.taskPut.run(TASK_COLUMNS.map((col) => t[col]));
        flushText();
      } catch (err) {
        // The caller's transaction rolls back: nothing cached may outlive it.
        blocks.reset();
        throw err;
      } finally {
        touched.clear();
      }
      s.counters.run(c.events, c.tasks, c.tokensIn, c.tokensOut, c.lastTs, c.firstTs, c.sid);
      return { added, skipped };
    },
  };
}
