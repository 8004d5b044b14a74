import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { newSessionId } from '../../src-shared/ids';
import { createCore } from '../../src-main/core';
import { createTraceWriter } from '../../src-main/trace';
import { syntheticSessionEvents } from '../../src-main/trace/synthetic';
import { startGatewayLoad } from './gateway-load';
import { watchSyncIo } from './sync-io';

// Main thread: the event-loop delay of the Studio's core (the web shell's core, the same code as
// the desktop's main process) while a capsule streams 10k trace events/s, a live trace view is open
// on it (trace.tail catching up, then following), the sessions browser opens a 1M-event session
// that was never indexed, a recorded run of 20,000 lines is replayed, and an outside caller makes
// 100 calls a second through the gateway (from another process, as a partner's agent would).
// Every core event is serialized as the web shell's socket would. Every synchronous file system
// call on the main thread is timed (sync-io.ts): the longest and the largest are reported.
// Target: p99 <= 10 ms, no sync I/O over 1 ms. Usage: node -r tsx/cjs bench/main-thread/loop.ts [--smoke] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const arg = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const rate = arg('--rate', 10_000);
const seconds = arg('--seconds', smoke ? 2 : 10);
const pastEvents = arg('--events', smoke ? 50_000 : 1_000_000);
const withLive = !args.includes('--no-live');
const withBrowse = !args.includes('--no-browse');
const withReplay = !args.includes('--no-replay');
const gatewayRate = arg('--gateway-rate', 100);
const replayLines = arg('--replay-lines', 20_000);
const outArg = args.indexOf('--out');
const out = resolve(outArg >= 0 ? args[outArg + 1] : join(__dirname, '..', 'results', 'main-thread.json'));

const BURST = `name: burst
version: "0.1.0"
role: worker
inference:
  transport: embedded
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    replies:
      - turns:
          - text: "burst done"
            stream: { frames: ${rate * seconds}, per_second: ${rate} }
`;

function percentiles(values: number[]) {
  const v = [...values].sort((a, b) => a - b);
  const at = (p: number) => Math.round((v[Math.min(v.length - 1, Math.floor((p / 100) * v.length))] ?? 0) * 100) / 100;
  return { samples: v.length, p50: at(50), p90: at(90), p99: at(99), max: at(100) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// The sampler's own reads of /proc are the benchmark's, not the core's: it keeps the unwatched function.
const readProcFile = readFileSync;

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'capsule-bench-loop-'));
  const records = join(home, 'records');
  try {
    // A past session of pastEvents lines, never indexed: opening it makes the index's first pass.
    const pastId = newSessionId();
    mkdirSync(join(records, pastId), { recursive: true });
    const writer = createTraceWriter(join(records, pastId, 'trace.jsonl'), pastId);
    // The writer writes off the main thread, which this loop never yields to: it writes every 10k lines itself.
    let n = 0;
    for (const e of syntheticSessionEvents({
      tasks: Math.ceil((pastEvents - 2) / 10),
      turns: 3,
      answerWord: 'benchmark',
    })) {
      writer.append(e);
      if (++n % 10_000 === 0) writer.flushSync();
    }
    writer.dispose();
    // A recorded run to replay: one session of replayLines lines (ten lines a task).
    const runId = newSessionId();
    mkdirSync(join(records, runId), { recursive: true });
    const runWriter = createTraceWriter(join(records, runId, 'trace.jsonl'), runId);
    for (const e of syntheticSessionEvents({
      tasks: Math.ceil((replayLines - 2) / 10),
      turns: 3,
      answerWord: 'replayed',
    }))
      runWriter.append(e);
    runWriter.dispose();

    const ws = join(home, 'ws');
    mkdirSync(join(ws, 'capsules'), { recursive: true });
    writeFileSync(
      join(ws, 'formation.yaml'),
      'capsules:\n  - id: burst\n    manifest: capsules/burst.yaml\n    position: { x: 0, y: 0 }\nremotes: []\n',
    );
    writeFileSync(join(ws, 'capsules', 'burst.yaml'), BURST);
    const core = createCore({
      userDataDir: join(home, 'data'),
      resourcesDir: join(home, 'data'),
      recordsRoot: records,
      workspace: ws,
      env: { CAPSULE_HOME: home },
    });
    let delivered = 0;
    let bytes = 0;
    core.subscribe((event, payload) => {
      // What the web shell's socket does with every event.
      bytes += JSON.stringify({ type: 'event', event, payload }).length;
      if (event === 'trace.appended') delivered += (payload as { events: unknown[] }).events.length;
    });
    await core.ready;
    const launched = await core.invoke('capsule.launch', { id: 'burst' });
    const sessionId = launched.sessionId!;
    await core.invoke('gateway.configure', { port: 0 });
    const exposed = await core.invoke('expose.enable', { capsuleId: 'burst' });

    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    // The machine is shared and small: a stall can be our work or the thread waiting for a core.
    // Linux says which (schedstat of the main thread: ns on a core, ns waiting to run), so each
    // 5 ms sampling interval's delay is split into the part this thread was busy (our work) and
    // the part it waited for the CPU (other processes).
    const schedFile = `/proc/self/task/${process.pid}/schedstat`;
    const sched = () => {
      try {
        const [run, wait] = readProcFile(schedFile, 'utf8').split(' ').map(Number);
        return { run, wait };
      } catch {
        return undefined;
      }
    };
    const ownDelays: number[] = [];
    const stalls: { at: number; ms: number; busyMs: number; waitMs: number }[] = [];
    let lastTick = performance.now();
    let lastSched = sched();
    const sampler = setInterval(() => {
      const now = performance.now();
      const cur = sched();
      const delay = Math.max(0, now - lastTick - 5);
      if (cur && lastSched) {
        const busy = (cur.run - lastSched.run) / 1e6;
        const wait = (cur.wait - lastSched.wait) / 1e6;
        // Busy time beyond what a free 5 ms interval costs counts as delay we caused.
        ownDelays.push(Math.min(delay, Math.max(0, busy - 1)));
        if (delay > 25)
          stalls.push({
            at: Math.round(lastTick - t0),
            ms: Math.round(delay),
            busyMs: Math.round(busy),
            waitMs: Math.round(wait),
          });
      }
      lastTick = now;
      lastSched = cur;
    }, 5);
    const syncIo = watchSyncIo();
    const gateway =
      gatewayRate > 0
        ? startGatewayLoad({ url: exposed.exposure.url, token: exposed.token, rate: gatewayRate })
        : undefined;
    const t0 = performance.now();
    const task = core.invoke('task.send', { capsuleId: 'burst', text: 'go' });
    const phases: Record<string, number> = {};
    const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const s = performance.now();
      const r = await run();
      phases[name] = Math.round(performance.now() - s);
      return r;
    };

    // The live trace view opens late in the burst (75k lines in): the last 100k lines, in pages.
    const live = (async () => {
      if (!withLive) return;
      await sleep((seconds * 1000 * 3) / 4);
      await timed('liveTraceOpenMs', async () => {
        // Pages as the renderer asks for them (tracesSlice's TAIL_PAGE); each answer is serialized as
        // the web shell's socket sends it.
        const PAGE = 10_000;
        const tail = async (input: { last?: number; after?: number }) => {
          const reply = await core.handle('trace.tail', { sessionId, ...input, limit: PAGE });
          bytes += JSON.stringify({ type: 'reply', id: 1, ...reply }).length;
          if (!reply.ok) throw new Error(reply.error.message);
          return reply.value as { events: unknown[]; next: number };
        };
        let page = await tail({ last: 100_000 });
        let lines = page.events.length;
        while (page.events.length === PAGE) {
          page = await tail({ after: page.next });
          lines += page.events.length;
        }
        phases.liveTraceLines = lines;
      });
    })();
    // The sessions browser opens the big past session while the burst runs.
    const browse = (async () => {
      if (!withBrowse) return;
      await sleep((seconds * 1000) / 3);
      await timed('sessionsOpenMs', async () => {
        let listed = await core.invoke('sessions.list', {});
        while (listed.store.indexing || (listed.sessions.find((s) => s.id === pastId)?.events ?? 0) < pastEvents) {
          if (performance.now() - t0 > 300_000) break;
          await sleep(250);
          listed = await core.invoke('sessions.list', {});
        }
        const got = await core.invoke('sessions.get', { sessionId: pastId });
        await core.invoke('sessions.events', { sessionId: pastId, limit: 500 });
        await core.invoke('sessions.events', { sessionId: pastId, offset: Math.floor(pastEvents * 0.9), limit: 500 });
        phases.pastSessionTasks = got.tasks.length;
      });
    })();

    // The replay of a recorded run, in the middle of the burst.
    const replay = (async () => {
      if (!withReplay) return;
      await sleep((seconds * 1000) / 2);
      await timed('replayMs', async () => {
        const run = await core.invoke('sessions.replay', { sessionId: runId });
        phases.replayLines = run.lines.length;
      });
    })();

    const done = await task;
    phases.burstMs = Math.round(performance.now() - t0);
    await Promise.all([live, browse, replay]);
    const gatewayCalls = await gateway?.stop();
    h.disable();
    clearInterval(sampler);
    syncIo.stop();
    const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;
    const result = {
      bench: 'main-thread',
      smoke,
      rate,
      seconds,
      pastEvents,
      taskState: done.status.state,
      eventLoopDelayMs: {
        p50: ms(h.percentile(50)),
        p90: ms(h.percentile(90)),
        p99: ms(h.percentile(99)),
        max: ms(h.max),
        mean: ms(h.mean),
      },
      // The delay the core's own work caused (the thread on a core), per 5 ms interval.
      ownWorkDelayMs: percentiles(ownDelays),
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
      targetP99Ms: 10,
      liveEventsDelivered: delivered,
      socketBytes: bytes,
      phases,
      gatewayCalls: gatewayCalls ?? null,
      // Synchronous file system calls on the main thread during the run; the target is none over 1 ms.
      syncIo: syncIo.report(),
      stalls: stalls.sort((a, b) => b.ms - a.ms).slice(0, 10),
      node: process.version,
      at: new Date().toISOString(),
    };
    await core.dispose();
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.log(JSON.stringify(result));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
