import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createTraceStore, type IngestReport, type SyncReport, type TraceStore } from './store';

// The trace index's writer as seen from the main thread: ingest requests go to a worker thread
// (index-worker.ts) and come back as promises, so indexing a 1M-event session never blocks the
// event loop that serves the Studio and the doors. Reads stay on the caller's own store
// connection (WAL lets them run beside the worker's writes). Where no worker can start, or once it
// has stopped, the same requests run in this thread.

export interface IndexerOptions {
  /** Database file (not ':memory:': the worker and the readers share it). */
  path: string;
  nativeBinding?: string;
}

/** A file being indexed: bytes done of its size. */
export interface IndexProgress {
  path: string;
  done: number;
  total: number;
}

export type IndexerRequest =
  | { type: 'ingest'; id: number; path: string }
  | { type: 'sync'; id: number; root: string }
  | { type: 'follow'; path: string }
  | { type: 'close' };

export type IndexerReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'done'; id: number; result: IngestReport | SyncReport }
  | { type: 'error'; id: number; message: string }
  | { type: 'progress'; path: string; done: number; total: number; error?: string }
  | { type: 'idle'; seen: number };

export interface TraceIndexer {
  /** Resolves once the index is open (created or migrated); rejects when it cannot open. */
  readonly ready: Promise<void>;
  ingestFile(path: string): Promise<IngestReport>;
  syncRecords(root: string): Promise<SyncReport>;
  /** A hint that a trace file grew: indexed soon, in the background (repeated hints collapse). */
  follow(path: string): void;
  /** What is being indexed right now, or null when the index is caught up. */
  progress(): IndexProgress | null;
  /** Resolves when every request and followed file so far is indexed. */
  idle(): Promise<void>;
  dispose(): Promise<void>;
}

/** How long dispose waits for the worker to finish what it is indexing before stopping it. */
const CLOSE_GRACE_MS = 1000;

/**
 * The built worker file next to this bundle. In a packaged desktop app the bundle sits in app.asar,
 * an archive a worker thread cannot load from: the packager keeps the worker in app.asar.unpacked.
 */
export function builtWorkerFile(bundleDir: string): string {
  return join(bundleDir.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked'), 'trace-index-worker.js');
}

/** The worker's entry: the built file next to this bundle, else the TypeScript source via tsx. */
function startWorker(options: IndexerOptions): Worker {
  const built = builtWorkerFile(__dirname);
  if (existsSync(built)) return new Worker(built, { workerData: options });
  const source = join(__dirname, 'index-worker.ts');
  // Resolved here: an eval'd worker resolves modules from the process's working folder.
  const tsx = createRequire(__filename).resolve('tsx/cjs/api');
  return new Worker(`require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});`, {
    eval: true,
    workerData: options,
  });
}

export interface IndexerEvents {
  onProgress?: (p: IndexProgress) => void;
  /** How long dispose lets a running ingest go on before stopping it (default CLOSE_GRACE_MS). */
  closeGraceMs?: number;
}

export function createTraceIndexer(options: IndexerOptions, events: IndexerEvents = {}): TraceIndexer {
  const opts = {
    path: resolve(options.path),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  };
  let worker: Worker;
  try {
    worker = startWorker(opts);
  } catch {
    return inThreadIndexer(opts);
  }
  /** Where requests go once the worker has stopped (not by dispose): this thread, slower. */
  let fallback: TraceIndexer | undefined;
  let disposed = false;
  const afterDeath = () => {
    if (disposed) throw new Error('the trace indexer was disposed');
    return (fallback ??= inThreadIndexer(opts));
  };
  let nextId = 1;
  const pending = new Map<number, { ok: (r: never) => void; fail: (e: Error) => void }>();
  let idleWaiters: (() => void)[] = [];
  /** Requests and hints posted; the worker is idle once its report has seen them all. */
  let sent = 0;
  let seen = 0;
  let current: IndexProgress | null = null;
  let dead: Error | null = null;
  let markReady!: () => void;
  let markFailed!: (e: Error) => void;
  const ready = new Promise<void>((ok, fail) => {
    markReady = ok;
    markFailed = fail;
  });
  ready.catch(() => {});

  const settleIdle = () => {
    // An idle worker must not keep the process alive; a busy one must (a request is awaited).
    worker.unref();
    current = null;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };
  const die = (err: Error) => {
    dead = err;
    markFailed(err);
    for (const p of pending.values()) p.fail(err);
    pending.clear();
    settleIdle();
  };

  worker.on('message', (m: IndexerReply) => {
    switch (m.type) {
      case 'ready':
        if (seen === sent) worker.unref();
        return markReady();
      case 'failed':
        return die(new Error(m.message));
      case 'progress':
        current = m.done < m.total ? { path: m.path, done: m.done, total: m.total } : null;
        if (!m.error) events.onProgress?.({ path: m.path, done: m.done, total: m.total });
        return;
      case 'idle':
        seen = m.seen;
        if (seen === sent) settleIdle();
        return;
      case 'done':
      case 'error': {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.type === 'done') p?.ok(m.result as never);
        else p?.fail(new Error(m.message));
      }
    }
  });
  worker.on('error', (err) => die(err));
  worker.on('exit', () => die(dead ?? new Error('the trace index worker stopped')));
  // Referenced until it reports ready (someone may be awaiting that), then only while busy.

  const post = (m: IndexerRequest) => {
    sent++;
    worker.ref();
    worker.postMessage(m);
  };

  function request<T>(req: { type: 'ingest'; path: string } | { type: 'sync'; root: string }): Promise<T> {
    if (dead) {
      try {
        const ix = afterDeath();
        return (req.type === 'ingest' ? ix.ingestFile(req.path) : ix.syncRecords(req.root)) as Promise<T>;
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    const id = nextId++;
    return new Promise<T>((ok, fail) => {
      pending.set(id, { ok: ok as (r: never) => void, fail });
      post({ ...req, id });
    });
  }

  return {
    ready,
    ingestFile: (path) => request<IngestReport>({ type: 'ingest', path: resolve(path) }),
    syncRecords: (root) => request<SyncReport>({ type: 'sync', root: resolve(root) }),
    follow(path) {
      if (!dead) post({ type: 'follow', path: resolve(path) });
      else if (!disposed) afterDeath().follow(path);
    },
    progress: () => current,
    idle: () => (seen < sent && !dead ? new Promise<void>((ok) => idleWaiters.push(ok)) : Promise.resolve()),
    async dispose() {
      disposed = true;
      await fallback?.dispose();
      if (dead) return;
      const exited = new Promise<void>((ok) => worker.once('exit', () => ok()));
      worker.ref();
      worker.postMessage({ type: 'close' });
      // A long ingest reads the close only after its file: stop it instead. Its open transaction
      // is rolled back like after a crash, and the next ingest starts from the last commit.
      const late = setTimeout(() => void worker.terminate(), events.closeGraceMs ?? CLOSE_GRACE_MS);
      await exited;
      clearTimeout(late);
    },
  };
}

/**
 * The same requests, run synchronously in this thread: where no worker could start, or after the
 * worker stopped. The store opens on the first request, so a failure to open is that request's.
 */
function inThreadIndexer(options: IndexerOptions): TraceIndexer {
  let store: TraceStore | undefined;
  const run = <T>(f: (s: TraceStore) => T) => new Promise<T>((ok) => ok(f((store ??= createTraceStore(options)))));
  const ready = run(() => undefined);
  ready.catch(() => {}); // the requests report it too
  return {
    ready,
    ingestFile: (path) => run((s) => s.ingestFile(path)),
    syncRecords: (root) => run((s) => s.syncRecords(root)),
    follow: (path) => void run((s) => s.ingestFile(path)).catch(() => {}),
    progress: () => null,
    idle: () => Promise.resolve(),
    dispose: async () => store?.dispose(),
  };
}
