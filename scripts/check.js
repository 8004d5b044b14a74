#!/usr/bin/env node
// The static checks: `npm run typecheck`, `npm run lint`, and both (no argument) as the first step
// of `npm test`. Each check is one single-threaded process, so they run side by side, as many at
// once as the machine has cores (two on CI's two-core machine: about half the wait of running them
// one after another). Each check's output is printed whole when it ends, after a line with its
// name, result and time; the exit code is 1 when any check failed.
'use strict';
const { spawn } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** Every check, in the order they start: longest first (on this repository), so the pool ends with
 * the short ones side by side. */
const CHECKS = [
  { group: 'typecheck', command: ['tsc', '--noEmit', '-p', 'tsconfig.node.json'] },
  { group: 'lint', command: ['eslint', '--max-warnings', '0', '.'] },
  { group: 'lint', command: ['prettier', '--check', '--log-level', 'warn', '.'] },
  { group: 'typecheck', command: ['tsc', '--noEmit', '-p', 'tsconfig.web.json'] },
  { group: 'typecheck', command: ['tsc', '--noEmit', '-p', 'tsconfig.e2e.json'] },
];

const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

/** Runs one check to its end: its exit code and everything it printed, in order. */
function runOne([name, ...args]) {
  return new Promise((done) => {
    const child = spawn(bin(name), args, { cwd: root, shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', (err) => done({ code: 1, output: `${output}${err.message}\n` }));
    child.once('close', (code, signal) => done({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/**
 * Runs the commands at most `concurrency` at a time, reporting each as it ends through `log`.
 * Resolves to true when every one exited 0.
 */
async function runChecks(commands, { concurrency = os.availableParallelism(), run = runOne, log = console.log } = {}) {
  const queue = [...commands];
  let ok = true;
  const worker = async () => {
    for (let command = queue.shift(); command; command = queue.shift()) {
      const started = Date.now();
      const { code, output } = await run(command);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (code !== 0) ok = false;
      log(`check: ${command.join(' ')}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s`);
      if (output.trim()) log(output.trimEnd());
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker));
  return ok;
}

if (require.main === module) {
  const groups = new Set(CHECKS.map((c) => c.group));
  const wanted = process.argv.slice(2);
  const unknown = wanted.find((w) => !groups.has(w));
  if (unknown) {
    console.error(`check: unknown check "${unknown}" (known: ${[...groups].join(', ')})`);
    process.exit(2);
  }
  const commands = CHECKS.filter((c) => !wanted.length || wanted.includes(c.group)).map((c) => c.command);
  runChecks(commands).then((ok) => process.exit(ok ? 0 : 1));
}

module.exports = { CHECKS, runChecks };
