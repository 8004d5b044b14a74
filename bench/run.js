#!/usr/bin/env node
'use strict';
// `npm run bench [-- --smoke] [-- --only door|trace-ingest|task-memory|…]`: runs the benchmarks and writes
// JSON to bench/results/. Smoke mode (CI) finishes in well under 30 s; full mode is for measuring.
const { execFile } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({ options: { smoke: { type: 'boolean', default: false }, only: { type: 'string' } } });
const ROOT = resolve(__dirname, '..');
const RESULTS = join(__dirname, 'results');
const smoke = values.smoke;

/**
 * Runs one benchmark script through tsx in its own process (`--out` its JSON file, `--smoke` or the
 * smoke arguments given) and resolves with the result it prints as its last line.
 */
function launch(name, script, { node = [], smokeArgs = ['--smoke'] } = {}) {
  const args = [
    ...node,
    '-r',
    'tsx/cjs',
    join(__dirname, script),
    '--out',
    join(RESULTS, `${name}.json`),
    ...(smoke ? smokeArgs : []),
  ];
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) =>
      err
        ? fail(new Error(`${name} failed: ${stderr || err.message}`))
        : ok(JSON.parse(stdout.trim().split('\n').pop())),
    ),
  );
}

const largestSyncIo = (io) => {
  const top = io.longest[0];
  return top
    ? `largest sync I/O on the main thread ${top.fn} ${top.ms} ms at ${top.at} (${io.callsOver1ms} calls over 1 ms)`
    : 'no sync I/O on the main thread';
};

// Each benchmark: its script (or its own runner) and the one line it reports, when the script's
// result does not carry its own `summary`.
const BENCHES = {
  'trace-ingest': { script: 'trace-ingest/ingest.ts' },
  door: {
    run: async () => {
      const result = await require('./door/door').runDoorBench({ smoke });
      writeFileSync(join(RESULTS, 'door.json'), JSON.stringify(result, null, 2) + '\n');
      return result;
    },
    summary: (r) =>
      `door: cpu/request ${r.ratios.door_cpu_per_request_vs_durable_floor}x the durable floor (rounds ${r.spread.door_cpu_per_request_vs_durable_floor.min}–${r.spread.door_cpu_per_request_vs_durable_floor.max}; target <= 1.5; ${r.ratios.door_cpu_per_request_vs_floor}x the bare floor, the durable floor ${r.ratios.durable_floor_cpu_per_request_vs_floor}x), throughput ${r.ratios.door_throughput_vs_sdk}x sdk (rounds ${r.spread.door_throughput_vs_sdk.min}–${r.spread.door_throughput_vs_sdk.max}; target >= 4); floor ${r.floor.throughput_rps} rps, durable floor ${r.durable_floor.throughput_rps} rps, sdk ${r.sdk.throughput_rps} rps, door ${r.door.throughput_rps} rps; stream first event ${r.ratios.door_stream_ttfe_p50_vs_floor_round_trip_p50}x floor round trip (rounds ${r.spread.door_stream_ttfe_p50_vs_floor_round_trip_p50.min}–${r.spread.door_stream_ttfe_p50_vs_floor_round_trip_p50.max}; target <= 1.5; door p50 ${r.streaming.door_ttfe_p50_ms} ms, floor ${r.streaming.floor_round_trip_p50_ms} ms)`,
  },
  'otel-export': { script: 'otel-export/export.ts' },
  'task-memory': { script: 'task-memory/memory.ts', node: ['--expose-gc'] },
  'formation-diff': { script: 'formation-diff/diff.ts', smokeArgs: ['--capsules', '50'] },
  'manifest-form': { script: 'manifest-form/edit.ts' },
  'trace-open': {
    script: 'trace-open/open.ts',
    summary: (r) =>
      `trace-open: ${r.events} events, opened (session + first page) in ${r.open_total_ms} ms (target 1000), deep page ${r.deep_page_ms} ms, ingest ${r.ingest_events_per_s} events/s`,
  },
  'live-trace': {
    script: 'live-trace/live.ts',
    summary: (r) =>
      `live-trace: ${r.delivered}/${r.sent} events delivered (${r.lost} lost, ${r.index_gaps} gaps) in ${r.batches} batches (p50 ${r.batch_size.p50}, max ${r.batch_size.max})`,
  },
  'main-thread': {
    script: 'main-thread/loop.ts',
    summary: (r) =>
      `main-thread: event-loop delay p99 ${r.eventLoopDelayMs.p99} ms (max ${r.eventLoopDelayMs.max}), the core's own work p99 ${r.ownWorkDelayMs.p99} ms (max ${r.ownWorkDelayMs.max}), ${largestSyncIo(r.syncIo)}, load average ${r.loadAverage[0]}`,
  },
  replay: { script: 'replay/fold.ts' },
  'studio-calls': { script: 'studio-calls/calls.ts' },
  'gateway-calls': { script: 'gateway-calls/calls.ts' },
  'mcp-conformance': { script: 'mcp-conformance/conformance.ts' },
  // Starts `npm start` and a browser: a full run only (or --only startup), not the CI smoke pass.
  startup: { run: () => require('./startup/run')({ smoke, results: RESULTS, root: ROOT }), full: true },
};

(async () => {
  mkdirSync(RESULTS, { recursive: true });
  const started = Date.now();
  let failed = false;
  for (const [name, bench] of Object.entries(BENCHES)) {
    if (values.only ? values.only !== name : smoke && bench.full) continue;
    try {
      const r = await (bench.run ? bench.run() : launch(name, bench.script, bench));
      // A benchmark that could not run here (a missing binary) says why in its own summary.
      const line =
        r.skipped || !bench.summary ? r.summary || `${name}: done (bench/results/${name}.json)` : bench.summary(r);
      process.stdout.write(`${line}\n`);
    } catch (err) {
      failed = true;
      process.stderr.write(`bench ${name}: ${err.message}\n`);
    }
  }
  process.stdout.write(`bench: ${((Date.now() - started) / 1000).toFixed(1)} s, results in ${RESULTS}\n`);
  process.exitCode = failed ? 1 : 0;
})();
