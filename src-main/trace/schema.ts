// The index schema. trace.jsonl stays the source of truth: this database can be deleted at any
// time and is rebuilt from the files, so a schema change just bumps SCHEMA_VERSION (a database
// with another version is rebuilt rather than migrated).

export const SCHEMA_VERSION = 13;

/**
 * Event types that come once or more per task or turn: dense enough that a type filter finds a
 * page of them by walking the session in line order. Every other type is indexed by type
 * (sparse_events).
 */
export const DENSE_TYPES = [
  'inference',
  'tool_call',
  'tool_result',
  'task_start',
  'a2a_task_received',
  'task_end',
] as const;

const DENSE = new Set<string>(DENSE_TYPES);
/** True for an event type that sparse_events indexes. */
export const isSparseType = (type: string): boolean => !DENSE.has(type);

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  sid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  capsule TEXT,
  version TEXT,
  url TEXT,
  pid INTEGER,
  manifest_path TEXT,
  parent_id TEXT,
  -- A fork (session_start.forked_from): the recorded session, task and turn it starts from.
  forked_from TEXT,
  forked_task TEXT,
  forked_turn INTEGER,
  driver TEXT,
  model TEXT,
  started_at INTEGER,
  ended_at INTEGER,
  end_reason TEXT,
  status TEXT NOT NULL DEFAULT 'running',
  tasks INTEGER NOT NULL DEFAULT 0,
  tokens_in INTEGER NOT NULL DEFAULT 0,
  tokens_out INTEGER NOT NULL DEFAULT 0,
  events INTEGER NOT NULL DEFAULT 0,
  last_ts INTEGER,
  trace_path TEXT,
  indexed_offset INTEGER NOT NULL DEFAULT 0,
  torn_bytes INTEGER NOT NULL DEFAULT 0,
  bad_lines INTEGER NOT NULL DEFAULT 0,
  deep_lines INTEGER NOT NULL DEFAULT 0,
  long_lines INTEGER NOT NULL DEFAULT 0,
  foreign_lines INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sessions_started ON sessions (started_at);
CREATE INDEX IF NOT EXISTS sessions_path ON sessions (trace_path);
CREATE INDEX IF NOT EXISTS sessions_forked ON sessions (forked_from);

CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY,
  sid INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  context_id TEXT,
  text TEXT,
  state TEXT NOT NULL DEFAULT 'TASK_STATE_SUBMITTED',
  exit_status TEXT,
  answer TEXT,
  failure TEXT,
  turns INTEGER NOT NULL DEFAULT 0,
  tokens_in INTEGER NOT NULL DEFAULT 0,
  tokens_out INTEGER NOT NULL DEFAULT 0,
  received_at INTEGER,
  started_at INTEGER,
  ended_at INTEGER,
  duration_ms INTEGER,
  -- First and last line of the task's events: a task filter scans only this span (no per-event index).
  first_seq INTEGER,
  last_seq INTEGER,
  task_json TEXT
);
CREATE INDEX IF NOT EXISTS tasks_session ON tasks (sid, ord);

-- Where each line is, in blocks of consecutive lines (blocks.ts): block = seq / 256, and data packs
-- the lines' byte offsets and lengths in trace.jsonl, times, task ordinals and type codes. A row
-- points at lines instead of copying them: the file is the source of truth, and one row per
-- block (not per line) keeps ingest fast and the database a fraction of the traces.
CREATE TABLE IF NOT EXISTS event_blocks (
  sid INTEGER NOT NULL,
  block INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (sid, block)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS event_types (
  code INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

-- Rare event types (failures, cancels, A2A sends, harness and session events) by type, so filtering
-- a 1M-event session for them is a seek, not a scan. Ingest writes a row here only for a rare
-- type; a page of a dense type is found by walking the blocks in order.
CREATE TABLE IF NOT EXISTS sparse_events (
  sid INTEGER NOT NULL,
  type TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (sid, type, seq)
) WITHOUT ROWID;

-- Full-text over what people search for: task text, answers, inference text, failures.
-- Contentless and detail=none (word presence only, which is all the search asks): the text
-- lives in trace.jsonl. A row holds a run of consecutive text-carrying lines of one session; its
-- rowid is sid * 2^32 + the run's first line, and text_runs gives its last line.
CREATE TABLE IF NOT EXISTS text_runs (
  sid INTEGER NOT NULL,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  PRIMARY KEY (sid, first_seq)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5 (text, content='', contentless_delete=1, detail=none);
`;

/** FTS rowid of an event: sessions and line numbers both fit in 32 bits. */
export const ftsRowid = (sid: number, seq: number): number => sid * 4294967296 + seq;
export const ftsSid = (rowid: number): number => Math.floor(rowid / 4294967296);
export const ftsSeq = (rowid: number): number => rowid % 4294967296;
