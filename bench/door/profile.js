#!/usr/bin/env node
'use strict';
// A short look inside the door under load (not part of `npm run bench`): starts our door under
// `node --cpu-prof`, drives it with the shared harness (blocking SendMessage, 16 connections) for
// a few seconds, stops it cleanly and prints the frames with the most self and inclusive time.
//
//   node bench/door/profile.js [--duration 8] [--top 30] [--keep DIR] [--floor] [--stream]
//
// --floor measures the bare fastify floor the same way, side by side, so the printed CPU per
// request can be read as a ratio (the machine is shared; absolute figures are noise).
// --stream drives SendStreamingMessage over one connection instead (what the streaming first
// event costs), and prints the first event's p50 beside the floor's round trip.
const { mkdirSync, mkdtempSync, writeFileSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { parseArgs } = require('node:util');
// The door bench's capsule, servers, load harness and core pinning, so the profile measures what it measures.
const { ROOT, MANIFEST, floorServer, doorServer, load, stopServer } = require('./servers');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    top: { type: 'string', default: '30' },
    keep: { type: 'string' },
    floor: { type: 'boolean', default: false },
    noprof: { type: 'boolean', default: false },
    stream: { type: 'boolean', default: false },
    report: { type: 'string' },
  },
});

/** Blocking SendMessage over 16 connections, or with --stream SendStreamingMessage over one (the floor: its round trip). */
const loadOnce = (label, server, duration, mode = 'send-blocking') =>
  load(label, server.url, server.child.pid, { mode, concurrency: values.stream ? 1 : 16, duration, warmup: 1 });

function report(profileFile, top) {
  const p = JSON.parse(readFileSync(profileFile, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = p.timeDeltas;
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (dt[i] ?? 0));
  const name = (n) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^file:\/\//, '').replace(ROOT + '/', '')}:${n.callFrame.lineNumber + 1}`;
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfBy = new Map();
  const inclBy = new Map();
  let total = 0;
  // The start (module loading, tsx compiling) is not the door's cost per request: stacks under
  // the main module's first run, or in the compiler, are left out.
  const startup = (id) => {
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur).callFrame;
      if (
        cf.url.includes('run_main_module') ||
        cf.url.includes('esbuild') ||
        cf.functionName === 'wrapSafe' ||
        cf.functionName === 'Module._load'
      )
        return true;
    }
    return false;
  };
  const byFile = new Map();
  for (const [id, t] of self) {
    if (startup(id)) continue;
    total += t;
    const file =
      byId
        .get(id)
        .callFrame.url.replace(/^file:\/\//, '')
        .replace(ROOT + '/', '')
        .replace(/^.*node_modules\//, '') || '(native)';
    byFile.set(file, (byFile.get(file) ?? 0) + t);
    const n = byId.get(id);
    selfBy.set(name(n), (selfBy.get(name(n)) ?? 0) + t);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = name(byId.get(cur));
      if (seen.has(k)) continue;
      seen.add(k);
      inclBy.set(k, (inclBy.get(k) ?? 0) + t);
    }
  }
  const pct = (t) => ((t / total) * 100).toFixed(1).padStart(5);
  const idle = selfBy.get('(idle) :0') ?? 0;
  process.stdout.write(
    `\nprofile: ${(total / 1e6).toFixed(2)} s sampled after the start, idle ${pct(idle)}%\n-- self --\n`,
  );
  for (const [k, t] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${pct(t)}%  ${k}\n`);
  process.stdout.write(`-- self by file --\n`);
  for (const [k, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${pct(t)}%  ${k}\n`);
  process.stdout.write(`-- inclusive --\n`);
  for (const [k, t] of [...inclBy].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${pct(t)}%  ${k}\n`);
}

(async () => {
  if (values.report) return report(values.report, Number(values.top));
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'capsule-door-profile-'));
  mkdirSync(dir, { recursive: true });
  const manifest = join(dir, 'bench-door.yaml');
  writeFileSync(manifest, MANIFEST);
  const duration = Number(values.duration);
  try {
    if (values.floor) {
      const f = await floorServer();
      const r = await loadOnce('floor', f, duration).finally(() => stopServer(f.child));
      const trip = values.stream ? `, round trip p50 ${r.latency_ms.p50} ms` : '';
      process.stdout.write(`floor: ${r.server.cpu_us_per_req} µs/req, ${r.throughput_rps} rps${trip}\n`);
    }
    const prof = values.noprof ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
    const d = await doorServer(manifest, { CAPSULE_HOME: join(dir, 'home') }, prof);
    const mode = values.stream ? 'stream' : 'send-blocking';
    // Stopped cleanly (SIGTERM, SIGKILL only after 5 s), so the profiler writes its file.
    const r = await loadOnce('door', d, duration, mode).finally(() => stopServer(d.child));
    const first = values.stream ? `, first event p50 ${r.ttfe_ms.p50} ms` : '';
    process.stdout.write(
      `door: ${r.server.cpu_us_per_req} µs/req, ${r.throughput_rps} rps${first}, errors ${r.errors}${values.noprof ? '' : ' (under the profiler)'}\n`,
    );
    if (!values.noprof) {
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      if (file) report(join(dir, file), Number(values.top));
      else process.stdout.write('no profile written\n');
    }
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
})();
