import { dirname, join } from 'node:path';
import { CoreError, type SessionItemView, type TraceStoreState } from '../../src-shared/contract';
import { createTraceStore, type SessionSummary, type TraceStore } from '../trace';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';
import { fallbackEvents, fallbackSessions } from './traces-fallback';
import { createTaskPager, type TaskPager } from './traces-tasks';
import { timelineBars } from './traces-timeline';

// Issue 6: the sessions browser and the timeline, answered from the trace store. The store is
// opened once, next to the records folder (the CLI's studio.db when the records are the capsule
// home's), and brought up to date incrementally before each answer (it follows every
// trace.jsonl by byte offset). Where SQLite cannot open (an Electron build without a matching
// native module), the answers come from the files, slower, and say so.

const MAX_TASKS = 1000;

export type TraceHandlers = Pick<Handlers, 'sessions.list' | 'sessions.get' | 'sessions.events' | 'sessions.timeline'>;

export interface TracesService {
  handlers: TraceHandlers;
  dispose(): void;
}

export function sessionItem(s: SessionSummary, capsuleId?: string): SessionItemView {
  return {
    id: s.id,
    capsule: s.capsule,
    ...(capsuleId ? { capsuleId } : {}),
    status: s.status,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    endReason: s.endReason,
    driver: s.driver,
    model: s.model,
    parentId: s.parentId,
    tasks: s.tasks,
    tokensIn: s.tokensIn,
    tokensOut: s.tokensOut,
    events: s.events,
  };
}


export function createTracesService(ctx: StudioContext, opts: { dbPath?: string } = {}): TracesService {
  const recordsRoot = ctx.config.recordsRoot ?? join(ctx.config.userDataDir, 'records');
  let store: TraceStore | undefined;
  let state: TraceStoreState = { available: true };
  let opened = false;
  let pager: TaskPager | undefined;

  // Opened on first use: a Studio that never browses traces never pays for the index.
  const open = (): TraceStore | undefined => {
    if (!opened) {
      opened = true;
      try {
        store = createTraceStore({ path: opts.dbPath ?? join(dirname(recordsRoot), 'studio.db'), nativeBinding: ctx.config.sqliteBinding });
      } catch (err) {
        state = { available: false, message: `The trace index is unavailable (${(err as Error).message}); sessions are read from the trace files, which is slower.` };
      }
    }
    return store;
  };

  const capsuleOf = (sessionId: string) => ctx.sessions.bySessionId(sessionId);
  // Lines a running session buffered reach the file (and so the index) before a query.
  const flushRunning = () => {
    for (const id of ctx.sessions.running()) ctx.sessions.session(id).trace.flush();
  };
  const sync = (s: TraceStore) => {
    flushRunning();
    s.syncRecords(recordsRoot);
  };
  const refresh = (s: TraceStore, sessionId: string): SessionSummary => {
    flushRunning();
    let found = s.getSession(sessionId);
    if (found?.tracePath) s.ingestFile(found.tracePath);
    else sync(s);
    found = s.getSession(sessionId);
    if (!found) throw new CoreError('not_found', `No recorded session ${sessionId} under ${recordsRoot}.`);
    return found;
  };

  const handlers: TraceHandlers = {
    'sessions.list'(q) {
      const s = open();
      if (!s) return { sessions: fallbackSessions(recordsRoot, q, capsuleOf), store: state };
      sync(s);
      const rows = s.listSessions({ capsule: q.capsule, status: q.state, since: q.since, until: q.until, search: q.search?.trim() || undefined, limit: q.limit ?? 500 });
      return { sessions: rows.map((r) => sessionItem(r, capsuleOf(r.id)?.id)), store: state };
    },
    'sessions.get'({ sessionId }) {
      const s = open();
      if (!s) {
        const session = fallbackSessions(recordsRoot, {}, capsuleOf).find((x) => x.id === sessionId);
        if (!session) throw new CoreError('not_found', `No recorded session ${sessionId}.`);
        return { session, tasks: [], store: state };
      }
      const found = refresh(s, sessionId);
      // A session of 100k tasks opens on its first ones: the task picker lists at most MAX_TASKS.
      pager ??= createTaskPager(s);
      return { session: sessionItem(found, capsuleOf(sessionId)?.id), tasks: pager.firstTasks(sessionId, MAX_TASKS), store: state };
    },
    'sessions.events'(q) {
      const s = open();
      const limit = q.limit ?? 200;
      const filtered = !!q.task || !!q.types?.length;
      // seq counts indexed lines from 0 without gaps, so an unfiltered offset is a cursor.
      const after = q.after ?? (q.offset && !filtered ? q.offset - 1 : undefined);
      if (!s) return { ...fallbackEvents(recordsRoot, q.sessionId, capsuleOf(q.sessionId)?.session.trace.path, after ?? -1, limit), store: state };
      const found = refresh(s, q.sessionId);
      const page = s.events(q.sessionId, { task: q.task, types: q.types, afterSeq: after, limit });
      return { events: page.events, next: page.nextSeq, total: filtered ? null : found.events, store: state };
    },
    'sessions.timeline'(q) {
      const s = open();
      if (!s) return { bars: [], store: state };
      sync(s);
      let ids = q.sessionIds ?? [];
      let window: [number, number] | undefined;
      if (q.around) {
        const center = refresh(s, q.around);
        const endOf = (o: SessionSummary) => (o.status === 'running' ? Date.now() : (o.endedAt ?? o.lastTs ?? Date.now()));
        const from = center.startedAt ?? 0;
        const to = endOf(center);
        // Sessions that were alive while this one ran (the formation it talked to).
        ids = s
          .listSessions({ limit: 500 })
          .filter((o) => o.id === center.id || ((o.startedAt ?? 0) <= to && endOf(o) >= from))
          .slice(0, 50)
          .map((o) => o.id);
        window = [from, to];
      }
      if (!ids.length) throw new CoreError('invalid_input', 'sessions.timeline: give sessionIds or around.');
      // Workers live for hours: around a session, only their tasks that ran while it did.
      const bars = timelineBars(s, ids).filter((b) => !window || (b.end >= window[0] && b.start <= window[1]));
      return { bars, store: state };
    },
  };

  return {
    handlers,
    dispose() {
      pager?.dispose();
      store?.dispose();
      store = undefined;
    },
  };
}
