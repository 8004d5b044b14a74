import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Agent, request } from 'node:http';
import { manifestSchema } from '../../src-shared/manifest';
import { startSession } from '../../src-main/launch';
import { KEEP_FINISHED } from '../../src-main/runtime/tasks';

// Task memory: what an old finished task costs a running session, with 1 KB and 1 MB payloads.
// A rehearsal capsule (zero delay; it answers by quoting the task, so each task holds its payload
// twice) takes blocking SendMessage calls through its door. First enough tasks to fill what the
// registry keeps whole (KEEP_FINISHED), then N more; after a full GC each time, the difference in
// heap and in resident memory divided by N is what one more old task costs. Goal: <= 1 KB per
// old task whatever its payload. Needs --expose-gc.
// Usage: node --expose-gc -r tsx/cjs bench/task-memory/memory.ts [--smoke] [--small N] [--big N] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const argOf = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const out = resolve(argOf('--out') ?? join(__dirname, '..', 'results', 'task-memory.json'));
const GOAL_BYTES = 1024;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

interface Mem {
  heap: number;
  rss: number;
  external: number;
}
async function settle(): Promise<Mem> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers };
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
function send(url: string, text: string, n: number): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method: 'SendMessage',
    params: { message: { messageId: `m-${n}`, role: 'ROLE_USER', parts: [{ text }] } },
  });
  return new Promise((ok, fail) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let raw = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (raw += c));
        res.on('end', () =>
          raw.includes('TASK_STATE_COMPLETED') ? ok() : fail(new Error(`not completed: ${raw.slice(0, 200)}`)),
        );
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/** Sends `count` tasks, 8 at a time. */
async function sendMany(url: string, payload: string, count: number, from: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await send(url, `${from + i} ${payload}`, from + i);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function measure(label: string, payloadChars: number, warm: number, count: number) {
  const home = mkdtempSync(join(tmpdir(), 'capsule-bench-memory-'));
  const manifest = manifestSchema.parse({
    name: 'bench-memory',
    version: '1.0.0',
    inference: { model: 'rehearsal', driver: { artifact: 'capsule/driver-rehearsal' }, rehearsal: { delay_ms: 0 } },
    lifecycle: { task_acceptance: 'queue', after_task: 'sleep', queue_depth: 64 },
  });
  const session = await startSession({
    manifestPath: join(home, 'murmur.yaml'),
    manifest,
    env: { CAPSULE_HOME: home },
    port: 0,
  });
  try {
    const payload = 'p'.repeat(payloadChars);
    const started = Date.now();
    await sendMany(session.url, payload, warm, 0);
    const before = await settle();
    const half = Math.floor(count / 2);
    await sendMany(session.url, payload, half, warm);
    const middle = await settle();
    await sendMany(session.url, payload, count - half, warm + half);
    const after = await settle();
    session.trace.flushSync();
    const per = (k: keyof Mem) => Math.round((after[k] - before[k]) / count);
    // The second half alone: memory the allocator took once (and keeps, as RSS) is not counted again.
    const perLater = (k: keyof Mem) => Math.round((after[k] - middle[k]) / (count - half));
    return {
      label,
      payload_chars: payloadChars,
      warm_tasks: warm,
      measured_tasks: count,
      heap_bytes_per_old_task: per('heap'),
      rss_bytes_per_old_task: per('rss'),
      external_bytes_per_old_task: per('external'),
      heap_bytes_per_old_task_second_half: perLater('heap'),
      rss_bytes_per_old_task_second_half: perLater('rss'),
      heap_mb_after: +(after.heap / 2 ** 20).toFixed(1),
      rss_mb_after: +(after.rss / 2 ** 20).toFixed(1),
      trace_mb: +(statSync(session.trace.path).size / 2 ** 20).toFixed(1),
      seconds: +((Date.now() - started) / 1000).toFixed(1),
      tasks_in_session: session.listTasks().length,
    };
  } finally {
    await session.end('bench over');
    rmSync(home, { recursive: true, force: true });
  }
}

async function main() {
  // Warm-up fills the whole-kept set by count (small tasks) or by bytes (big ones).
  const small = await measure(
    '1 KB',
    1_000,
    KEEP_FINISHED.tasks + 100,
    Number(argOf('--small') ?? (smoke ? 2_000 : 100_000)),
  );
  const big = await measure('1 MB', 1_000_000, 12, Number(argOf('--big') ?? (smoke ? 20 : 200)));
  const result = {
    bench: 'task-memory',
    mode: smoke ? 'smoke' : 'full',
    kept_whole: KEEP_FINISHED,
    goal_bytes_per_old_task: GOAL_BYTES,
    small,
    big,
    meets_goal: small.heap_bytes_per_old_task <= GOAL_BYTES && big.heap_bytes_per_old_task <= GOAL_BYTES,
    summary: `task-memory: heap per old task ${small.heap_bytes_per_old_task} B (1 KB payload), ${big.heap_bytes_per_old_task} B (1 MB payload); rss ${small.rss_bytes_per_old_task} B, ${big.rss_bytes_per_old_task} B (second half ${small.rss_bytes_per_old_task_second_half} B, ${big.rss_bytes_per_old_task_second_half} B) (goal <= ${GOAL_BYTES} B)`,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  agent.destroy();
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
