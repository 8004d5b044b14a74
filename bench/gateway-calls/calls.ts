import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { agentCardOf } from '../../src-main/door';
import { createGateway, sessionCapsule } from '../../src-main/gateway';
import { startTestSession } from '../../src-main/runtime/testing';
import { startGatewayLoad } from '../main-thread/gateway-load';

// What an A2A call through the gateway costs the process that hosts the gateway and the session:
// CPU per call while another process calls at a steady rate (GetTask of a task nobody has, as
// bench/main-thread does), with the session called in process (as the Studio's gateway serves its
// own sessions) and with the same session reached over loopback HTTP at its door (as a gateway
// reaches another process's door). Rounds alternate the two; never asserted.
// Usage: node -r tsx/cjs bench/gateway-calls/calls.ts [--smoke] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const out = resolve(
  args.includes('--out') ? args[args.indexOf('--out') + 1] : join(__dirname, '..', 'results', 'gateway-calls.json'),
);
const RATE = 200;
const WARM_MS = smoke ? 500 : 2000;
const MEASURE_MS = smoke ? 2000 : 10_000;
const ROUNDS = smoke ? 1 : 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const ts = await startTestSession({});
  const s = ts.session;
  const runs: Record<'in_process' | 'over_http', { cpu_us_per_call: number; calls: number; failed: number }[]> = {
    in_process: [],
    over_http: [],
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const how of ['in_process', 'over_http'] as const) {
        const dir = mkdtempSync(join(tmpdir(), 'bench-gateway-calls-'));
        const gateway = await createGateway({
          dataDir: dir,
          port: 0,
          resolveCapsule: (n) =>
            n !== s.manifest.name
              ? undefined
              : how === 'in_process'
                ? sessionCapsule(s)
                : { url: s.url, card: agentCardOf(s) },
        });
        try {
          const token = gateway.exposures.enable(s.manifest.name).token;
          const load = startGatewayLoad({ url: gateway.urlsOf(s.manifest.name).url, token, rate: RATE });
          await sleep(WARM_MS);
          const cpu0 = process.cpuUsage();
          await sleep(MEASURE_MS);
          const cpu = process.cpuUsage(cpu0);
          const calls = await load.stop();
          // Calls made while measuring: the steady rate over the measured part of the run.
          const measured = (calls.answered * MEASURE_MS) / (MEASURE_MS + WARM_MS);
          runs[how].push({
            cpu_us_per_call: Math.round((cpu.user + cpu.system) / Math.max(1, measured)),
            calls: calls.answered,
            failed: calls.failed,
          });
        } finally {
          await gateway.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await ts.dispose();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const inProcess = median(runs.in_process.map((r) => r.cpu_us_per_call));
  const overHttp = median(runs.over_http.map((r) => r.cpu_us_per_call));
  const { loadavg } = await import('node:os');
  const result = {
    bench: 'gateway-calls',
    smoke,
    rate: RATE,
    measure_ms: MEASURE_MS,
    cpu_us_per_call: { in_process: inProcess, over_http: overHttp },
    runs,
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    measured_at: new Date().toISOString(),
    summary: `gateway-calls: CPU per call ${inProcess} µs in process, ${overHttp} µs over loopback HTTP (median of ${ROUNDS} rounds at ${RATE} calls/s; load average ${loadavg()[0].toFixed(2)})`,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
