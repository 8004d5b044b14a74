import type Database from 'better-sqlite3';
import type { createBlockReader } from './blocks';
import { TEXT_TYPES, searchableText } from './ingest';
import { readTraceRangesAsync } from './jsonl';
import { ftsSeq, ftsSid } from './schema';

// Text search over the index. A full-text row covers a run of text-carrying lines (ingest.ts), so
// a match names a run; the lines of it whose text holds every word are the hits.

/** One line a search found: its session, place in the trace, task, type and the text that matched. */
export interface SearchHit {
  sessionId: string;
  seq: number;
  taskId: string | null;
  type: string;
  ts: number | null;
  text: string;
}

/** FTS5 query matching every word, with the words quoted so user text is never query syntax. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu);
  return words?.length ? words.map((w) => `"${w}"`).join(' ') : null;
}

/** The words of a search as the full-text index sees them: lower case, without accents. */
function searchWords(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** True when `text` has every word (the FTS row matched the task; this finds its lines). */
function hasWords(text: string, words: readonly string[]): boolean {
  const have = new Set(searchWords(text));
  return words.every((w) => have.has(w));
}

function timeOf(v: unknown): number | null {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? null : t;
}

export function createSearch(db: Database.Database, blocks: ReturnType<typeof createBlockReader>) {
  const runsStmt = db.prepare(
    'SELECT rowid FROM events_fts WHERE events_fts MATCH ? AND rowid < ? ORDER BY rowid DESC LIMIT ?',
  );
  const runEndStmt = db.prepare('SELECT last_seq AS last FROM text_runs WHERE sid = ? AND first_seq = ?');
  const sessionOfSidStmt = db.prepare('SELECT id, trace_path AS path FROM sessions WHERE sid = ?');
  const taskOfOrdStmt = db.prepare('SELECT id FROM tasks WHERE sid = ? AND ord = ?');

  return async function search(text: string, q: { limit?: number } = {}): Promise<SearchHit[]> {
    const match = ftsQuery(text);
    if (!match) return [];
    const limit = q.limit ?? 50;
    const words = searchWords(text);
    const hits: SearchHit[] = [];
    // A matching FTS row is a run of text lines; the lines of it that hold every word are the
    // hits, newest first.
    for (let before = Number.MAX_SAFE_INTEGER; hits.length < limit;) {
      const runs = runsStmt.all(match, before, limit) as { rowid: number }[];
      for (const { rowid } of runs) {
        if (hits.length >= limit) break;
        const sid = ftsSid(rowid);
        const first = ftsSeq(rowid);
        const session = sessionOfSidStmt.get(sid) as { id: string; path: string } | undefined;
        if (!session) continue;
        const last = (runEndStmt.get(sid, first) as { last: number } | undefined)?.last ?? first;
        const lines = blocks.scan(sid, {
          afterSeq: first - 1,
          lastSeq: last,
          types: TEXT_TYPES,
          limit: Number.MAX_SAFE_INTEGER,
        });
        let texts: string[];
        try {
          texts = await readTraceRangesAsync(session.path, lines);
        } catch {
          continue;
        }
        for (let i = lines.length - 1; i >= 0 && hits.length < limit; i--) {
          let event: Record<string, unknown>;
          try {
            event = JSON.parse(texts[i]) as Record<string, unknown>;
          } catch {
            continue;
          }
          const found = searchableText(event);
          if (!found || !hasWords(found, words)) continue;
          const task =
            lines[i].taskNo === null
              ? undefined
              : (taskOfOrdStmt.get(sid, lines[i].taskNo) as { id: string } | undefined);
          hits.push({
            sessionId: session.id,
            seq: lines[i].seq,
            taskId: task?.id ?? null,
            type: String(event.event_type),
            ts: timeOf(event.ts),
            text: found,
          });
        }
      }
      if (runs.length < limit) break;
      before = runs[runs.length - 1].rowid;
    }
    return hits;
  };
}
