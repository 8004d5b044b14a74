#!/usr/bin/env node
'use strict';
// Time from `npm start` (web shell, --no-open) to the first interactive canvas: the example
// workspace's nodes drawn and Launch all enabled, in a browser already running (as a user's is).
// Also the JavaScript the first screen fetched. Each run starts with a fresh CAPSULE_HOME; the
// build is skipped when out/ is up to date (run `npm run build` first to measure that case).
// Usage: node bench/startup/startup.js [--smoke] [--out file.json]
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { chromium } = require('@playwright/test');

const { values } = parseArgs({ options: { smoke: { type: 'boolean', default: false }, out: { type: 'string' } } });
const ROOT = resolve(__dirname, '../..');
const RUNS = values.smoke ? 1 : 5;
/** A start that has not printed its address by then is a failure, not a slow figure. */
const START_TIMEOUT_MS = 120_000;

function startStudio(home) {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.js'), '--web', '--no-open'], {
    cwd: ROOT,
    env: { ...process.env, CAPSULE_HOME: home, BROWSER: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = new Promise((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`npm start printed no address in ${START_TIMEOUT_MS} ms:\n${out}`)),
      START_TIMEOUT_MS,
    );
    child.stdout.on('data', (c) => {
      out += c;
      const m = /^Capsule Studio: (http\S+)\s*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.stderr.on('data', (c) => (out += c));
    child.once('exit', (code) => fail(new Error(`npm start exited (${code}) before printing its address:\n${out}`)));
  });
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { url, stop, output: () => out };
}

async function once(browser) {
  const home = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const page = await browser.newPage();
  const bodies = [];
  page.on('response', (r) => {
    if (r.url().endsWith('.js'))
      bodies.push(
        r.body().then(
          (b) => b.length,
          () => 0,
        ),
      );
  });
  const started = performance.now();
  const studio = startStudio(home);
  try {
    const url = await studio.url;
    const printed = performance.now();
    await page.goto(url);
    await page.locator('.react-flow__node').first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.getByRole('button', { name: 'Launch all' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
    const interactive = performance.now();
    await page.waitForLoadState('networkidle');
    const jsBytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
    return {
      total_ms: Math.round(interactive - started),
      address_ms: Math.round(printed - started),
      page_ms: Math.round(interactive - printed),
      js_bytes: jsBytes,
      built: /Building the Studio/.test(studio.output()),
    };
  } finally {
    await page.close();
    await studio.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

(async () => {
  // The same Chromium the e2e suite drives (Debian's, or CHROMIUM_PATH).
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i++) runs.push(await once(browser));
  } finally {
    await browser.close();
  }
  const result = {
    bench: 'startup',
    smoke: values.smoke,
    runs: runs.length,
    total_ms: {
      p50: median(runs.map((r) => r.total_ms)),
      min: Math.min(...runs.map((r) => r.total_ms)),
      max: Math.max(...runs.map((r) => r.total_ms)),
    },
    address_ms_p50: median(runs.map((r) => r.address_ms)),
    page_ms_p50: median(runs.map((r) => r.page_ms)),
    first_screen_js_bytes: runs[0].js_bytes,
    built_in_run: runs.some((r) => r.built),
    target: { total_ms: 3000, first_screen_js_bytes: 500_000 },
    load_average: require('node:os')
      .loadavg()
      .map((l) => Math.round(l * 100) / 100),
    runs_detail: runs,
  };
  if (values.out) writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(JSON.stringify(result) + '\n');
})().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
