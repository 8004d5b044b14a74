import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { newSessionId } from '../../src-shared/ids';
import { createTelemetry } from '../../src-main/telemetry';
import { createTraceWriter } from '../../src-main/trace';
import { syntheticSessionEvents } from '../../src-main/trace/synthetic';

// What OpenTelemetry export costs the runtime: trace events appended through the session's trace
// writer, side by side with and without the OTLP exporter following it (to a local collector
// that answers at once, http/protobuf), as events per CPU-second. The ratio is the figure; the
// spans made and dropped are counted. Median of several runs.
// Usage: node -r tsx/cjs bench/otel-export/export.ts [--smoke] [--events N] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const argOf = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const target = Number(argOf('--events') ?? (smoke ? 20_000 : 300_000));
const runs = smoke ? 1 : 3;
const out = resolve(argOf('--out') ?? join(__dirname, '..', 'results', 'otel-export.json'));

const cpuS = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1e6;

async function runOnce(url: string, exporting: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-bench-otel-'));
  try {
    const id = newSessionId();
    const events = [...syntheticSessionEvents({ tasks: Math.ceil(target / 10), turns: 3, answerWord: 'benchmark' })];
    const writer = createTraceWriter(join(dir, 'trace.jsonl'), id);
    const telemetry = exporting
      ? createTelemetry({
          url,
          protocol: 'http/protobuf',
          headers: {},
          serviceName: 'bench',
          maxQueueSize: 2048,
          scheduledDelayMs: 200,
        })
      : undefined;
    telemetry?.follow({
      id,
      capsule: 'bench',
      version: '1',
      model: 'rehearsal',
      driver: 'rehearsal',
      subscribe: (l) => writer.subscribe(l),
      append: (e) => writer.append(e),
    });
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const e of events) writer.append(e);
    writer.flushSync();
    const cpu = cpuS(c0, process.cpuUsage());
    const wall = (performance.now() - t0) / 1000;
    await telemetry?.flush();
    const stats = telemetry?.stats();
    await telemetry?.shutdown();
    writer.dispose();
    return {
      events: events.length,
      events_per_cpu_s: Math.round(events.length / cpu),
      events_per_s: Math.round(events.length / wall),
      ...(stats ? { spans_exported: stats.exported, spans_dropped: stats.dropped } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

(async () => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  const plain = [];
  const exported = [];
  for (let i = 0; i < runs; i++) {
    plain.push(await runOnce(url, false));
    exported.push(await runOnce(url, true));
  }
  server.close();
  const median = <T extends { events_per_cpu_s: number }>(xs: T[]) =>
    [...xs].sort((a, b) => a.events_per_cpu_s - b.events_per_cpu_s)[Math.floor(xs.length / 2)];
  const p = median(plain);
  const x = median(exported);
  const ratio = +(p.events_per_cpu_s / x.events_per_cpu_s).toFixed(2);
  const result = {
    smoke,
    plain: p,
    exporting: x,
    cost_ratio: ratio,
    runs: { plain, exporting: exported },
    summary: `otel-export: trace appends cost ${ratio}x with OTLP export on (${x.events_per_cpu_s} vs ${p.events_per_cpu_s} events/cpu-s; ${x.spans_exported} spans exported, ${x.spans_dropped} dropped)`,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
})();
