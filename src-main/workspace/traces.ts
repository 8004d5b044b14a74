import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CoreError, type SessionItemView, type SessionTaskView, type TraceStoreState } from '../../src-shared/contract';
import { createTraceIndexer, createTraceStore, type SessionSummary, type TaskSummary, type TraceIndexer, type TraceStore } from '../trace';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';
import { fallbackEvents, fallbackSessions } from './traces-fallback';
import { timelineBars } from './traces-timeline';

// Issue 6: the sessions browser and the timeline, answered from the trace store. The store is
// opened once, next to the records folder (the CLI's studio.db when the records are the capsule
// home's). Indexing runs on a worker thread (trace/indexer.ts): before each answer the index is
// brought up to date, waiting at most ANSWER_WAIT_MS; a bigger backlog (a first index of a
// 1M-event session) goes on in the background while the answer shows what is indexed so far and
// how far indexing has come. Running sessions' traces are followed as they grow. Where SQLite
// cannot open (an Electron build without a matching native module), the answers come from the
// files, slower, and say so.

const MAX_TASKS = 1000;
/** How long an answer waits for the index to catch up before it answers from what is indexed. */
const ANSWER_WAIT_MS = 300;
/** The worker's start (not counted in the wait above) is given at most this long. */
const START_WAIT_MS = 5000;
/** How often running sessions' traces are handed to the indexer. */
const FOLLOW_MS = 1000;

export type TraceHandlers = Pick<Handlers, 'sessions.list' | 'sessions.get' | 'sessions.events' | 'sessions.timeline'>;

export interface TracesService {
  handlers: TraceHandlers;
  dispose(): Promise<void>;
}

function taskView(t: TaskSummary): SessionTaskView {
  return {
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
  };
}

/** True when `work` settled within `ms` (its failure is thrown); false when it is still going. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((ok) => (timer = setTimeout(ok, ms, false)));
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
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
  const dbPath = opts.dbPath ?? join(dirname(recordsRoot), 'studio.db');
  let store: TraceStore | undefined;
  let indexer: TraceIndexer | undefined;
  let unavailable: TraceStoreState | undefined;
  let opened = false;
  let follow: NodeJS.Timeout | undefined;
  /** Work in flight, so repeated questions join it instead of queueing more. */
  let syncing: Promise<unknown> | undefined;
  const ingesting = new Map<string, Promise<unknown>>();

  // Opened on first use: a Studio that never browses traces never pays for the index. This
  // connection reads; the worker writes (it starts in the background, answers do not wait for it).
  const open = (): TraceStore | undefined => {
    if (!opened) {
      opened = true;
      try {
        store = createTraceStore({ path: dbPath, nativeBinding: ctx.config.sqliteBinding });
      } catch (err) {
        unavailable = { available: false, message: `The trace index is unavailable (${(err as Error).message}); sessions are read from the trace files, which is slower.` };
        return undefined;
      }
      indexer = createTraceIndexer({ path: dbPath, nativeBinding: ctx.config.sqliteBinding });
      follow = setInterval(followRunning, FOLLOW_MS);
      follow.unref();
    }
    return store;
  };

  const state = (): TraceStoreState => {
    if (unavailable) return unavailable;
    const p = indexer?.progress();
    if (p) return { available: true, indexing: { done: p.done, total: p.total } };
    // A sync still under way that has not finished its first batch yet: indexing, size unknown.
    return syncing ? { available: true, indexing: { done: 0, total: 0 } } : { available: true };
  };

  const capsuleOf = (sessionId: string) => ctx.sessions.bySessionId(sessionId);
  // Lines a running session buffered reach the file (and so the index) before a query.
  const flushRunning = () => {
    for (const id of ctx.sessions.running()) ctx.sessions.session(id).trace.flush();
  };
  function followRunning() {
    for (const id of ctx.sessions.running()) {
      const trace = ctx.sessions.session(id).trace;
      trace.flush();
      indexer?.follow(trace.path);
    }
  }
  /** Asks the worker; where it could not start or has stopped, the work runs in this thread. */
  const indexWork = <T>(ask: (ix: TraceIndexer) => Promise<T>, here: (s: TraceStore) => T): Promise<T> => {
    const ix = indexer;
    const inThread = () => Promise.resolve().then(() => here(store!));
    if (!ix || ix.failed()) return inThread();
    return ask(ix).catch((err: unknown) => {
      if (!ix.failed()) throw err;
      return inThread();
    });
  };
  const joined = (work: Promise<unknown>, done: () => void) => {
    const p = work.finally(done);
    p.catch(() => {}); // an answer that stopped waiting must not leave a rejection unhandled
    return p;
  };
  /** Waits for `work` at most ANSWER_WAIT_MS once the worker runs; true when it finished. */
  const settle = async (work: Promise<unknown>): Promise<boolean> => {
    if (indexer) await within(indexer.ready, START_WAIT_MS).catch(() => false);
    return within(work, ANSWER_WAIT_MS);
  };
  const syncAll = () => {
    flushRunning();
    return (syncing ??= joined(
      indexWork((ix) => ix.syncRecords(recordsRoot), (s) => s.syncRecords(recordsRoot)),
      () => (syncing = undefined),
    ));
  };
  const ingest = (path: string) => {
    let p = ingesting.get(path);
    if (!p) ingesting.set(path, (p = joined(indexWork((ix) => ix.ingestFile(path), (s) => s.ingestFile(path)), () => ingesting.delete(path))));
    return p;
  };
  /** True when the index has read the whole file (as it stands now). */
  const current = (s: SessionSummary) => {
    try {
      return !!s.tracePath && statSync(s.tracePath).size === s.indexedBytes + s.tornBytes;
    } catch {
      return false;
    }
  };
  /** Brings one session (or, when it is unknown, every trace) up to date within the answer's wait. */
  const refresh = async (s: TraceStore, sessionId: string): Promise<SessionSummary> => {
    flushRunning();
    const known = s.getSession(sessionId);
    if (known && current(known)) return known;
    const work = known?.tracePath ? ingest(known.tracePath) : syncAll();
    // A session not indexed yet appears with the first batch of its file: wait for that at least.
    for (let done = await settle(work); ; done = await settle(work)) {
      const found = s.getSession(sessionId);
      if (found) return found;
      if (done) throw new CoreError('not_found', `No recorded session ${sessionId} under ${recordsRoot}.`);
    }
  };

  const handlers: TraceHandlers = {
    async 'sessions.list'(q) {
      const s = open();
      if (!s) return { sessions: fallbackSessions(recordsRoot, q, capsuleOf), store: state() };
      await settle(syncAll());
      const rows = s.listSessions({ capsule: q.capsule, status: q.state, since: q.since, until: q.until, search: q.search?.trim() || undefined, limit: q.limit ?? 500 });
      return { sessions: rows.map((r) => sessionItem(r, capsuleOf(r.id)?.id)), store: state() };
    },
    async 'sessions.get'({ sessionId }) {
      const s = open();
      if (!s) {
        const session = fallbackSessions(recordsRoot, {}, capsuleOf).find((x) => x.id === sessionId);
        if (!session) throw new CoreError('not_found', `No recorded session ${sessionId}.`);
        return { session, tasks: [], store: state() };
      }
      const found = await refresh(s, sessionId);
      // A session of 100k tasks opens on its first ones: the task picker lists at most MAX_TASKS.
      const tasks = s.listTasks(sessionId, { limit: MAX_TASKS }).map(taskView);
      return { session: sessionItem(found, capsuleOf(sessionId)?.id), tasks, store: state() };
    },
    async 'sessions.events'(q) {
      const s = open();
      const limit = q.limit ?? 200;
      const filtered = !!q.task || !!q.types?.length;
      // seq counts indexed lines from 0 without gaps, so an unfiltered offset is a cursor.
      const after = q.after ?? (q.offset && !filtered ? q.offset - 1 : undefined);
      if (!s) return { ...fallbackEvents(recordsRoot, q.sessionId, capsuleOf(q.sessionId)?.session.trace.path, after ?? -1, limit), store: state() };
      const found = await refresh(s, q.sessionId);
      const page = s.events(q.sessionId, { task: q.task, types: q.types, afterSeq: after, limit });
      return { events: page.events, next: page.nextSeq, total: filtered ? null : found.events, store: state() };
    },
    async 'sessions.timeline'(q) {
      const s = open();
      if (!s) return { bars: [], store: state() };
      await settle(syncAll());
      let ids = q.sessionIds ?? [];
      let window: [number, number] | undefined;
      if (q.around) {
        const center = await refresh(s, q.around);
        const endOf = (o: SessionSummary) => (o.status === 'running' ? Date.now() : (o.endedAt ?? o.lastTs ?? Date.now()));
        const from = center.startedAt ?? 0;
        const to = endOf(center);
        // Sessions that were alive while this one ran (the formation it talked to).
        // The session itself first: when bars run out, its own tasks are the ones drawn.
        ids = [
          center.id,
          ...s
            .listSessions({ limit: 500 })
            .filter((o) => o.id !== center.id && (o.startedAt ?? 0) <= to && endOf(o) >= from)
            .slice(0, 49)
            .map((o) => o.id),
        ];
        window = [from, to];
      }
      if (!ids.length) throw new CoreError('invalid_input', 'sessions.timeline: give sessionIds or around.');
      // Workers live for hours: around a session, only their tasks that ran while it did.
      const drawn = timelineBars(s, ids);
      const bars = drawn.bars.filter((b) => !window || (b.end >= window[0] && b.start <= window[1]));
      return { bars, store: state(), ...(drawn.truncated.length ? { truncated: drawn.truncated } : {}) };
    },
  };

  return {
    handlers,
    async dispose() {
      if (follow) clearInterval(follow);
      store?.dispose();
      store = undefined;
      await indexer?.dispose();
      indexer = undefined;
    },
  };
}
