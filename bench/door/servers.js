'use strict';
// What every door bench shares: the load harness (a2a-load.mjs, given by A2A_LOAD or found beside
// the checkout), the rehearsal capsule the door runs, core pinning, and starting, loading and
// stopping one server process.
const { spawn, execFile } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { createInterface } = require('node:readline');

const ROOT = resolve(__dirname, '../..');
// Beside the project, or beside the folder of worktrees a checkout may live in.
const HARNESS =
  process.env.A2A_LOAD ||
  [
    resolve(ROOT, '..', 'shared', 'bench', 'a2a-load.mjs'),
    resolve(ROOT, '..', '..', 'shared', 'bench', 'a2a-load.mjs'),
  ].find((p) => existsSync(p)) ||
  resolve(ROOT, '..', 'shared', 'bench', 'a2a-load.mjs');
const haveTaskset = existsSync('/usr/bin/taskset');

const MANIFEST = `name: bench-door
version: "1.0.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    delay_ms: 0
lifecycle:
  task_acceptance: queue
  after_task: sleep
  queue_depth: 1024
`;

/** Server on core 0, load on core 1 (when taskset exists), so they do not fight for one core. */
const pinned = (core, cmd, args) => (haveTaskset ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args]);

function startServer(label, args, env, urlPattern) {
  const [cmd, argv] = pinned(0, process.execPath, args);
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${label} did not start in 60 s: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = urlPattern.exec(line);
      if (m) {
        clearTimeout(timer);
        ok({ child, url: m[1] });
      }
    });
    child.once('exit', (code) => fail(new Error(`${label} exited ${code}: ${stderr}`)));
  });
}

function stopServer(child) {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => (clearTimeout(kill), done()));
    child.kill('SIGTERM');
  });
}

/** The servers the benches compare, each a starter for startServer's answer ({ child, url }). */
const floorServer = () => startServer('floor', [join(__dirname, 'floor-server.js')], {}, /^url (\S+)/);
const durableFloorServer = () =>
  startServer('durable-floor', [join(__dirname, 'durable-floor-server.js')], {}, /^url (\S+)/);
const sdkServer = () => startServer('sdk', [join(__dirname, 'sdk-server.js')], {}, /^url (\S+)/);
/**
 * Our door: `capsule run` on the bench manifest (a file path), its home in env.CAPSULE_HOME;
 * `nodeFlags` go to node before the script (profile.js: --cpu-prof).
 */
const doorServer = (manifest, env, nodeFlags = []) =>
  startServer(
    'door',
    [...nodeFlags, join(ROOT, 'bin', 'capsule.js'), 'run', '--manifest', manifest, '--port', '0'],
    env,
    /^capsule: url (\S+)/,
  );

/** One harness run against a started server; resolves the harness's JSON report. */
function load(label, url, pid, o) {
  const args = [
    HARNESS,
    '--url',
    url,
    '--mode',
    o.mode ?? 'send-blocking',
    '--concurrency',
    String(o.concurrency),
    '--duration',
    String(o.duration),
    '--warmup',
    String(o.warmup),
    '--server-pid',
    String(pid),
    '--label',
    label,
  ];
  const [cmd, argv] = pinned(1, process.execPath, args);
  return new Promise((ok, fail) =>
    execFile(cmd, argv, { cwd: ROOT, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      try {
        ok(JSON.parse(stdout.trim().split('\n').pop()));
      } catch {
        fail(new Error(`a2a-load failed for ${label}: ${err ? err.message : ''} ${stderr}`));
      }
    }),
  );
}

/** Starts a server, loads it once and stops it. */
async function measure(label, start, o) {
  const { child, url } = await start();
  // taskset execs node in place, so the child's pid is the server's.
  try {
    return await load(label, url, child.pid, o);
  } finally {
    await stopServer(child);
  }
}

const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The lowest and highest of a ratio over the rounds. */
const spreadOf = (values) => ({ min: Math.min(...values), max: Math.max(...values) });

module.exports = {
  ROOT,
  HARNESS,
  MANIFEST,
  haveTaskset,
  pinned,
  startServer,
  stopServer,
  floorServer,
  durableFloorServer,
  sdkServer,
  doorServer,
  load,
  measure,
  ratio,
  median,
  spreadOf,
};
