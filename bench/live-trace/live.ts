import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EventMap } from '../../src-shared/contract';
import { newSessionId, newTaskId } from '../../src-shared/ids';
import type { Session } from '../../src-main/runtime/api';
import { createTraceWriter } from '../../src-main/trace';
import { createCapsuleSessions } from '../../src-main/workspace';

// Live trace: a synthetic burst of 10k events/s for 10 s written through a session's trace
// writer, carried by the core's trace.appended path (createCapsuleSessions batches per flush
// interval). Counts what is delivered (no loss, no duplicates, no gaps by line index) and the
// batch sizes. Frame times in the renderer are a separate Playwright measurement, not here.
// Usage: node -r tsx/cjs bench/live-trace/live.ts [--smoke] [--rate N] [--seconds S] [--out FILE]

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const smoke = args.includes('--smoke');
const rate = arg('--rate', 10_000);
const seconds = arg('--seconds', smoke ? 1 : 10);
const outArg = args.indexOf('--out');
const out = resolve(outArg >= 0 ? args[outArg + 1] : join(__dirname, '..', 'results', 'live-trace.json'));

/** A session that only writes a trace: enough for the core's session watcher. */
function fakeSession(dir: string): { session: Session; end(): void } {
  const id = newSessionId();
  const trace = createTraceWriter(join(dir, id, 'trace.jsonl'), id);
  trace.append({
    event_type: 'session_start',
    capsule: 'burst',
    version: '0',
    url: 'http://127.0.0.1:1',
    manifest_path: 'murmur.yaml',
    driver: 'rehearsal',
    model: 'rehearsal',
    pid: process.pid,
  });
  let done: (reason: string) => void = () => {};
  const ended = new Promise<string>((r) => (done = r));
  const session = {
    id,
    url: 'http://127.0.0.1:1',
    trace,
    workdir: join(dir, id),
    startedAt: Date.now(),
    ended,
    status: () => ({ state: 'busy', queued: 0, tasks: 1, running: null }),
    peekTask: () => undefined,
    onTaskEvent: () => () => {},
    end: async () => done('stopped'),
  } as unknown as Session;
  return { session, end: () => done('stopped') };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-bench-live-'));
  const batches: EventMap['trace.appended'][] = [];
  const sessions = createCapsuleSessions({
    recordsRoot: dir,
    emit: (event, payload) => {
      if (event === 'trace.appended') batches.push(payload as EventMap['trace.appended']);
    },
    startSession: async () => fake.session,
  });
  const fake = fakeSession(dir);
  await sessions.launch('burst', 'murmur.yaml');

  const total = rate * seconds;
  const taskId = newTaskId();
  let sent = 0;
  const lag: number[] = [];
  const t0 = performance.now();
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - t0) / 1000) * rate));
      for (; sent < due; sent++)
        fake.session.trace.append({
          event_type: 'tool_result',
          task_id: taskId,
          call_id: `c${sent}`,
          name: 'burst',
          ok: true,
          result: `line ${sent}`,
        });
      if (sent >= total) return done();
      const next = performance.now();
      setTimeout(() => (lag.push(performance.now() - next - 1), tick()), 1);
    };
    tick();
  });
  const sendMs = performance.now() - t0;
  await sessions.stop('burst');
  await sessions.dispose();
  fake.session.trace.dispose();

  const delivered = batches.reduce((n, b) => n + b.events.length, 0);
  let gaps = 0;
  let expectFirst = batches[0]?.first ?? 0;
  for (const b of batches) {
    if (b.first !== expectFirst) gaps++;
    expectFirst = b.first + b.events.length;
  }
  const seqs = new Set(batches.flatMap((b) => b.events.map((e) => (e as { call_id?: string }).call_id)));
  const fileLines = readFileSync(fake.session.trace.path, 'utf8').split('\n').length - 1;
  const sizes = batches.map((b) => b.events.length).sort((a, b) => a - b);
  const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(xs.length * p))] : 0);
  const lags = lag.sort((a, b) => a - b);
  const result = {
    bench: 'live-trace',
    mode: smoke ? 'smoke' : 'full',
    node: process.version,
    rate_per_s: rate,
    seconds,
    sent: total,
    send_wall_ms: Math.round(sendMs),
    delivered,
    lost: total - delivered,
    distinct_delivered: seqs.size,
    index_gaps: gaps,
    trace_file_lines: fileLines,
    batches: batches.length,
    batches_per_s: Math.round((batches.length / sendMs) * 1000),
    batch_size: { min: sizes[0] ?? 0, p50: pct(sizes, 0.5), p95: pct(sizes, 0.95), max: sizes[sizes.length - 1] ?? 0 },
    event_loop_lag_ms: {
      p50: Math.round(pct(lags, 0.5) * 10) / 10,
      p95: Math.round(pct(lags, 0.95) * 10) / 10,
      max: Math.round((lags[lags.length - 1] ?? 0) * 10) / 10,
    },
    note: 'core side only (trace writer -> session watcher -> trace.appended); renderer frame time is not measured here',
  };
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(JSON.stringify(result) + '\n');
  rmSync(dir, { recursive: true, force: true });
}

void main();
