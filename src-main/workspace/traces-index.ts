import { statSync } from 'node:fs';
import { CoreError, type TraceStoreState } from '../../src-shared/contract';
import {
  createTraceIndexer,
  createTraceStore,
  type SessionSummary,
  type TraceIndexer,
  type TraceStore,
} from '../trace';
import type { StudioContext } from './context';

// The Studio's access to the trace index: one reading connection on this thread, the
// writing done by the index worker (trace/indexer.ts). Before an answer the index is brought up
// to date, waiting at most ANSWER_WAIT_MS; a bigger backlog (a first index of a 1M-event session)
// goes on in the background while the answer shows what is indexed so far, and state() says how
// far indexing has come. Running sessions' traces are followed as they grow. Opened on first use:
// a Studio that never browses traces never pays for the index.

/** How long an answer waits for the index to catch up before it answers from what is indexed. */
const ANSWER_WAIT_MS = 300;
/** The worker's start (not counted in the wait above) is given at most this long. */
const START_WAIT_MS = 5000;
/** How often running sessions' traces are handed to the indexer. */
const FOLLOW_MS = 1000;

/**
 * True when `work` settled within `ms` (its failure is thrown); false when it is still going.
 * Rejects with `canceled` as soon as `signal` aborts: the caller stopped waiting (the index goes on).
 */
async function within(work: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<false>((ok) => (timer = setTimeout(ok, ms, false)));
  const stopped = new Promise<never>((_, fail) => {
    onAbort = () => fail(new CoreError('canceled', 'Stopped waiting for the trace index.'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work.then(() => true as const), late, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

export interface TraceIndexAccess {
  /** The reading connection, or undefined where SQLite cannot open (state() says why). */
  open(): TraceStore | undefined;
  state(): TraceStoreState;
  /** Brings every trace under the records root up to date, within the answer's wait (`signal` ends the wait). */
  sync(signal?: AbortSignal): Promise<void>;
  /** Brings one session (or, when it is unknown, every trace) up to date within the answer's wait (`signal` ends it). */
  refresh(s: TraceStore, sessionId: string, signal?: AbortSignal): Promise<SessionSummary>;
  dispose(): Promise<void>;
}

export function createTraceIndexAccess(ctx: StudioContext, recordsRoot: string, dbPath: string): TraceIndexAccess {
  let store: TraceStore | undefined;
  let indexer: TraceIndexer | undefined;
  let unavailable: TraceStoreState | undefined;
  let opened = false;
  let follow: NodeJS.Timeout | undefined;
  /** Work in flight, so repeated questions join it instead of queueing more. */
  let syncing: Promise<unknown> | undefined;
  const ingesting = new Map<string, Promise<unknown>>();

  // This connection reads; the worker writes (it starts in the background).
  const open = (): TraceStore | undefined => {
    if (!opened) {
      opened = true;
      try {
        store = createTraceStore({ path: dbPath, nativeBinding: ctx.config.sqliteBinding });
      } catch (err) {
        unavailable = {
          available: false,
          message: `The trace index is unavailable (${(err as Error).message}); sessions are read from the trace files, which is slower.`,
        };
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

  // Lines a running session buffered reach the file (and so the index) before a query.
  const flushRunning = () => Promise.all(ctx.sessions.running().map((id) => ctx.sessions.session(id).trace.flush()));
  function followRunning() {
    for (const id of ctx.sessions.running()) {
      const trace = ctx.sessions.session(id).trace;
      void trace.flush().then(() => indexer?.follow(trace.path));
    }
  }
  const joined = (work: Promise<unknown>, done: () => void) => {
    const p = work.finally(done);
    p.catch(() => {}); // an answer that stopped waiting must not leave a rejection unhandled
    return p;
  };
  /** Waits for `work` at most ANSWER_WAIT_MS once the worker runs; true when it finished. */
  const settle = async (work: Promise<unknown>, signal?: AbortSignal): Promise<boolean> => {
    if (indexer)
      await within(indexer.ready, START_WAIT_MS, signal).catch((err: unknown) => {
        if (signal?.aborted) throw err;
        return false;
      });
    return within(work, ANSWER_WAIT_MS, signal);
  };
  const syncAll = async () => {
    await flushRunning();
    return (syncing ??= joined(indexer!.syncRecords(recordsRoot), () => (syncing = undefined)));
  };
  const ingest = (path: string) => {
    let p = ingesting.get(path);
    if (!p) ingesting.set(path, (p = joined(indexer!.ingestFile(path), () => ingesting.delete(path))));
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
  const refresh = async (s: TraceStore, sessionId: string, signal?: AbortSignal): Promise<SessionSummary> => {
    await flushRunning();
    const known = s.getSession(sessionId);
    if (known && current(known)) return known;
    const work = known?.tracePath ? ingest(known.tracePath) : syncAll();
    // A session not indexed yet appears with the first batch of its file: wait for that at least.
    for (let done = await settle(work, signal); ; done = await settle(work, signal)) {
      const found = s.getSession(sessionId);
      if (found) return found;
      if (done) throw new CoreError('not_found', `No recorded session ${sessionId} under ${recordsRoot}.`);
    }
  };

  return {
    open,
    state,
    async sync(signal) {
      await settle(syncAll(), signal);
    },
    refresh,
    async dispose() {
      if (follow) clearInterval(follow);
      store?.dispose();
      store = undefined;
      await indexer?.dispose();
      indexer = undefined;
    },
  };
}
