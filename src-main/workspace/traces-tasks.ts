import Database from 'better-sqlite3';
import type { SessionTaskView } from '../../src-shared/contract';
import type { TraceStore } from '../trace';

// The first tasks of a session, bounded. The store's listTasks returns every task (seconds for a
// 100k-task session), so the browser reads its first page through a read-only connection on the
// same database (WAL lets it read beside the writer). Until the store grows a limit of its own,
// any failure here (a schema this query does not know, an in-memory store) falls back to
// listTasks, sliced.

const SQL = `SELECT t.id, t.ord, t.state, t.text, t.answer, t.failure, t.turns, t.tokens_in AS tokensIn, t.tokens_out AS tokensOut,
  coalesce(t.received_at, t.started_at) AS startedAt, t.ended_at AS endedAt, t.duration_ms AS durationMs
  FROM tasks t WHERE t.sid = (SELECT sid FROM sessions WHERE id = ?) ORDER BY t.ord LIMIT ?`;

export interface TaskPager {
  firstTasks(sessionId: string, limit: number): SessionTaskView[];
  dispose(): void;
}

export function createTaskPager(store: TraceStore): TaskPager {
  let reader: Database.Database | undefined;
  let stmt: Database.Statement | undefined;
  let broken = store.path === ':memory:';
  const sliced = (sessionId: string, limit: number): SessionTaskView[] =>
    store.listTasks(sessionId).slice(0, limit).map((t) => ({
      id: t.id,
      ord: t.ord,
      state: t.state,
      text: t.text,
      answer: t.answer,
      failure: t.failure,
      turns: t.turns,
      tokensIn: t.tokensIn,
      tokensOut: t.tokensOut,
      startedAt: t.receivedAt ?? t.startedAt,
      endedAt: t.endedAt,
      durationMs: t.durationMs,
    }));
  return {
    firstTasks(sessionId, limit) {
      if (!broken) {
        try {
          reader ??= new Database(store.path, { readonly: true, fileMustExist: true });
          stmt ??= reader.prepare(SQL);
          return stmt.all(sessionId, limit) as SessionTaskView[];
        } catch {
          broken = true;
        }
      }
      return sliced(sessionId, limit);
    },
    dispose() {
      reader?.close();
      reader = undefined;
    },
  };
}
