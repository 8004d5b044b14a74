#!/usr/bin/env node
// Sums a DevTools timeline recorded by e2e/graph-perf.spec.ts (GRAPH_PERF_TIMELINE=<dir>): time
// on the page's main thread by event (script, style, layout, paint, raster), and the functions the
// sampling profiler saw most (self time). Usage: node bench/graph/timeline.js <trace.json> [top]
'use strict';
const { readFileSync } = require('node:fs');

const file = process.argv[2];
const top = Number(process.argv[3] ?? 25);
if (!file) {
  console.error('usage: node bench/graph/timeline.js <trace.json> [top]');
  process.exit(2);
}
const raw = JSON.parse(readFileSync(file, 'utf8'));
const events = Array.isArray(raw) ? raw : raw.traceEvents;

// The renderer's main thread: the one named CrRendererMain with the most events.
const names = new Map();
for (const e of events)
  if (e.name === 'thread_name' && e.args?.name === 'CrRendererMain') names.set(`${e.pid}:${e.tid}`, 0);
for (const e of events) {
  const k = `${e.pid}:${e.tid}`;
  if (names.has(k)) names.set(k, names.get(k) + 1);
}
const main = [...names.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];

const byName = new Map();
const add = (name, us) => byName.set(name, (byName.get(name) ?? 0) + us);
for (const e of events)
  if (e.ph === 'X' && typeof e.dur === 'number' && `${e.pid}:${e.tid}` === main) add(e.name, e.dur);
// Raster and paint on any thread (software raster runs on worker threads).
const raster = new Map();
for (const e of events)
  if (e.ph === 'X' && typeof e.dur === 'number' && /Raster|Paint|Composite|Draw/i.test(e.name))
    raster.set(e.name, (raster.get(e.name) ?? 0) + e.dur);

const ms = (us) => (us / 1000).toFixed(1).padStart(9);
console.log(`main thread ${main} (inclusive ms, nested events overlap):`);
for (const [n, us] of [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${n}`);
console.log('\npaint and raster, every thread:');
for (const [n, us] of [...raster.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${ms(us)}  ${n}`);

// The sampling profiler: ProfileChunk events carry nodes and samples with time deltas.
const nodes = new Map();
const self = new Map();
for (const e of events) {
  if (e.name !== 'ProfileChunk') continue;
  const d = e.args?.data?.cpuProfile;
  for (const n of d?.nodes ?? []) nodes.set(`${e.id}:${n.id}`, n.callFrame);
  const deltas = e.args?.data?.timeDeltas ?? [];
  (d?.samples ?? []).forEach((id, i) => {
    const f = nodes.get(`${e.id}:${id}`);
    if (!f) return;
    const key = `${f.functionName || '(anonymous)'} ${(f.url ?? '').split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0));
  });
}
if (self.size) {
  console.log('\nscript self time by function (sampled):');
  for (const [n, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${n}`);
}
