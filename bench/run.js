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

function traceIngest() {
  const out = join(RESULTS, 'trace-ingest.json');
  const args = ['-r', 'tsx/cjs', join(__dirname, 'trace-ingest', 'ingest.ts'), '--out', out, ...(smoke ? ['--smoke'] : [])];
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? fail(new Error(`trace-ingest failed: ${stderr || err.message}`)) : ok(JSON.parse(stdout.trim().split('\n').pop())))),
  );
}

function taskMemory() {
  const out = join(RESULTS, 'task-memory.json');
  const args = ['--expose-gc', '-r', 'tsx/cjs', join(__dirname, 'task-memory', 'memory.ts'), '--out', out, ...(smoke ? ['--smoke'] : [])];
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? fail(new Error(`task-memory failed: ${stderr || err.message}`)) : ok(JSON.parse(stdout.trim().split('\n').pop())))),
  );
}

async function door() {
  const result = await require('./door/door').runDoorBench({ smoke });
  writeFileSync(join(RESULTS, 'door.json'), JSON.stringify(result, null, 2) + '\n');
  return result;
}

function otelExport() {
  const out = join(RESULTS, 'otel-export.json');
  const args = ['-r', 'tsx/cjs', join(__dirname, 'otel-export', 'export.ts'), '--out', out, ...(smoke ? ['--smoke'] : [])];
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? fail(new Error(`otel-export failed: ${stderr || err.message}`)) : ok(JSON.parse(stdout.trim().split('\n').pop())))),
  );
}

function formationDiff() {
  const out = join(RESULTS, 'formation-diff.json');
  const args = ['-r', 'tsx/cjs', join(__dirname, 'formation-diff', 'diff.ts'), '--out', out, ...(smoke ? ['--capsules', '50'] : [])];
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? fail(new Error(`formation-diff failed: ${stderr || err.message}`)) : ok(JSON.parse(stdout.trim().split('\n').pop())))),
  );
}

function manifestForm() {
  const out = join(RESULTS, 'manifest-form.json');
  const args = ['-r', 'tsx/cjs', join(__dirname, 'manifest-form', 'edit.ts'), '--out', out, ...(smoke ? ['--smoke'] : [])];
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? fail(new Error(`manifest-form failed: ${stderr || err.message}`)) : ok(JSON.parse(stdout.trim().split('\n').pop())))),
  );
}

const benches = { 'trace-ingest': traceIngest, door, 'otel-export': otelExport, 'task-memory': taskMemory, 'formation-diff': formationDiff, 'manifest-form': manifestForm };
benches['trace-open'] = () => require('./trace-open/run')({ smoke, results: RESULTS, root: ROOT });
benches['live-trace'] = () => require('./live-trace/run')({ smoke, results: RESULTS, root: ROOT });
benches['main-thread'] = () => require('./main-thread/run')({ smoke, results: RESULTS, root: ROOT });
benches.startup = () => require('./startup/run')({ smoke, results: RESULTS, root: ROOT });
benches.replay = () => {
  const out = join(RESULTS, 'replay.json');
  const args = ['-r', 'tsx/cjs', join(__dirname, 'replay', 'fold.ts'), '--out', out, ...(smoke ? ['--smoke'] : [])];
  return new Promise((ok, fail) => execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? fail(new Error(`replay failed: ${stderr || err.message}`)) : ok(JSON.parse(stdout.trim().split('\n').pop())))));
};
benches['studio-calls'] = () => {
  const out = join(RESULTS, 'studio-calls.json');
  const args = ['-r', 'tsx/cjs', join(__dirname, 'studio-calls', 'calls.ts'), '--out', out, ...(smoke ? ['--smoke'] : [])];
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? fail(new Error(`studio-calls failed: ${stderr || err.message}`)) : ok(JSON.parse(stdout.trim().split('\n').pop())))),
  );
};

(async () => {
  mkdirSync(RESULTS, { recursive: true });
  const started = Date.now();
  let failed = false;
  for (const [name, fn] of Object.entries(benches)) {
    if (values.only && values.only !== name) continue;
    try {
      const r = await fn();
      if (r.skipped) {
        process.stdout.write(`${r.summary}\n`);
        continue;
      }
      const line = r.summary ??
        (name === 'door'
          ? `door: cpu/request ${r.ratios.door_cpu_per_request_vs_floor}x floor (target <= 2), throughput ${r.ratios.door_throughput_vs_sdk}x sdk (target >= 3); floor ${r.floor.throughput_rps} rps, sdk ${r.sdk.throughput_rps} rps, door ${r.door.throughput_rps} rps; stream first event ${r.ratios.door_stream_ttfe_p50_vs_floor_round_trip_p50}x floor round trip (target <= 1.5)`
          : name === 'trace-ingest'
            ? `trace-ingest: ${r.combined_events_per_s} events/s wall, ${r.combined_events_per_cpu_s} events/cpu-s (append + index, target 100000)`
            : `${name}: done (bench/results/${name}.json)`);
      process.stdout.write(`${line}\n`);
    } catch (err) {
      failed = true;
      process.stderr.write(`bench ${name}: ${err.message}\n`);
    }
  }
  process.stdout.write(`bench: ${((Date.now() - started) / 1000).toFixed(1)} s, results in ${RESULTS}\n`);
  process.exitCode = failed ? 1 : 0;
})();
