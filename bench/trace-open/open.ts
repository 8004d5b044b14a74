import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { newSessionId } from '../../src-shared/ids';
import { createTraceWriter } from '../../src-main/trace';
import { syntheticSessionEvents } from '../../src-main/trace/synthetic';
import type { StudioContext } from '../../src-main/workspace';
import { createTracesService } from '../../src-main/workspace/traces';

// Trace open: a 1,000,000-event session written to trace.jsonl, indexed, then opened the way the
// sessions browser opens it (a fresh core service on the database: sessions.get + the first page
// of sessions.events), and a page deep in the session (a scroll far down). Target: <= 1 s.
// Usage: node -r tsx/cjs bench/trace-open/open.ts [--smoke] [--events N] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const eventsArg = args.indexOf('--events');
const outArg = args.indexOf('--out');
const target = eventsArg >= 0 ? Number(args[eventsArg + 1]) : smoke ? 50_000 : 1_000_000;
const out = resolve(outArg >= 0 ? args[outArg + 1] : join(__dirname, '..', 'results', 'trace-open.json'));

/** Just enough of the Studio context for the traces service: no running capsules. */
const contextFor = (home: string) =>
  ({
    config: { userDataDir: home, resourcesDir: home, recordsRoot: join(home, 'records') },
    sessions: { running: () => [], bySessionId: () => undefined },
  }) as unknown as StudioContext;

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'capsule-bench-open-'));
  try {
    const id = newSessionId();
    const tracePath = join(home, 'records', id, 'trace.jsonl');
    mkdirSync(join(home, 'records', id), { recursive: true });
    const writer = createTraceWriter(tracePath, id);
    let n = 0;
    for (const e of syntheticSessionEvents({
      tasks: Math.ceil((target - 2) / 10),
      turns: 3,
      answerWord: 'benchmark',
    })) {
      writer.append(e);
      n++;
    }
    writer.dispose();

    // Ingest: the first sessions.list a Studio answers after these records appeared.
    const t0 = performance.now();
    const first = createTracesService(contextFor(home));
    // The first index runs on the index worker; an answer waits 300 ms at most, so ask until it
    // reports the whole session.
    let listed = await first.handlers['sessions.list']({});
    while (listed.store.indexing || (listed.sessions[0]?.events ?? 0) < n) {
      if (performance.now() - t0 > 600_000)
        throw new Error(`the index reached ${listed.sessions[0]?.events ?? 0} of ${n} events in 10 minutes`);
      await new Promise((r) => setTimeout(r, 50));
      listed = await first.handlers['sessions.list']({});
    }
    const ingestMs = performance.now() - t0;
    await first.dispose();

    // Open: a fresh service (the database file opened again), as a Studio started later does.
    const t1 = performance.now();
    const svc = createTracesService(contextFor(home));
    const got = await svc.handlers['sessions.get']({ sessionId: id });
    const t2 = performance.now();
    const page = await svc.handlers['sessions.events']({ sessionId: id, limit: 500 });
    const t3 = performance.now();
    const deep = await svc.handlers['sessions.events']({ sessionId: id, offset: Math.floor(n * 0.9), limit: 500 });
    const t4 = performance.now();
    const oneTask = await svc.handlers['sessions.events']({
      sessionId: id,
      task: got.tasks[got.tasks.length - 1].id,
      limit: 500,
    });
    const t5 = performance.now();
    const found = await svc.handlers['sessions.list']({ search: 'benchmark' });
    const t6 = performance.now();
    await svc.dispose();

    const ms = (x: number) => Math.round(x * 10) / 10;
    const result = {
      bench: 'trace-open',
      mode: smoke ? 'smoke' : 'full',
      node: process.version,
      events: n,
      indexed_events: listed.sessions[0]?.events ?? 0,
      trace_bytes: statSync(tracePath).size,
      db_bytes: statSync(join(home, 'studio.db')).size,
      ingest_ms: ms(ingestMs),
      ingest_events_per_s: Math.round(n / (ingestMs / 1000)),
      open_session_get_ms: ms(t2 - t1),
      open_first_page_ms: ms(t3 - t2),
      open_total_ms: ms(t3 - t1),
      first_page_events: page.events.length,
      total_reported: page.total,
      deep_page_ms: ms(t4 - t3),
      deep_page_first_seq: deep.events[0]?.seq ?? null,
      task_page_ms: ms(t5 - t4),
      task_page_events: oneTask.events.length,
      search_list_ms: ms(t6 - t5),
      search_sessions: found.sessions.length,
      target_open_ms: 1000,
      note: 'open_total_ms = fresh database handle + sessions.get (summary + first 1000 tasks) + first 500-event page, through the core handlers',
    };
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

void main();
