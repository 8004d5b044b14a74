import { parentPort, workerData } from 'node:worker_threads';
import { createTraceStore, type TraceStore } from './store';
import type { IndexerOptions, IndexerReply, IndexerRequest } from './indexer';

// The trace index's writer, on its own thread: ingest (parsing lines, SQLite inserts) runs on
// the machine's second core, so the runtime and the Studio's event loop never wait for it, and the
// index follows busy sessions as they write. Requests run one at a time; "follow" hints for the
// same file collapse into one ingest.

const port = parentPort!;
const options = workerData as IndexerOptions;
const send = (m: IndexerReply) => port.postMessage(m);

let store: TraceStore | undefined;
try {
  store = createTraceStore({ path: options.path, nativeBinding: options.nativeBinding });
  send({ type: 'ready' });
} catch (err) {
  send({ type: 'failed', message: (err as Error).message });
}

type Job = Extract<IndexerRequest, { id: number }>;
const queue: Job[] = [];
const followed = new Set<string>();
let scheduled = false;
/** Messages received: the idle report names it, so the other side knows which work it covers. */
let seen = 0;

const progress = (path: string, done: number, total: number) => send({ type: 'progress', path, done, total });

function drain() {
  scheduled = false;
  while (queue.length) {
    const req = queue.shift()!;
    if (!store) {
      send({ type: 'error', id: req.id, message: 'the trace index could not open' });
      continue;
    }
    try {
      const result =
        req.type === 'ingest' ? store.ingestFile(req.path, progress) : store.syncRecords(req.root, progress);
      send({ type: 'done', id: req.id, result });
    } catch (err) {
      send({ type: 'error', id: req.id, message: (err as Error).message });
    }
  }
  // One followed file per turn: requests that arrive meanwhile are read in between.
  const [path] = followed;
  if (!store) return followed.clear();
  if (path === undefined) return send({ type: 'idle', seen });
  followed.delete(path);
  try {
    store.ingestFile(path, progress);
  } catch (err) {
    // A followed file may be gone or unreadable; the next explicit request reports it.
    send({ type: 'progress', path, done: 0, total: 0, error: (err as Error).message });
  }
  schedule();
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(drain);
}

port.on('message', (req: IndexerRequest) => {
  if (req.type === 'close') {
    store?.dispose();
    store = undefined;
    port.close();
    return;
  }
  seen++;
  if (req.type === 'follow') followed.add(req.path);
  else queue.push(req as Job);
  schedule();
});
