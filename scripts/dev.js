#!/usr/bin/env node
// npm run dev: the desktop app on electron-vite's dev server, the renderer hot-reloading (its page
// CSP admits React's refresh preamble, scripts/renderer-csp.ts). Fetches Electron first if needed.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
require('tsx/cjs/api').register();
const { RETRY_HINT } = require('./desktop/choose-shell.ts');
const { desktopSteps } = require('./desktop/setup.ts');

const root = path.resolve(__dirname, '..');
const bin = path.join(
  root,
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite',
);

async function main() {
  const steps = desktopSteps(root);
  if (!steps.binary()) {
    const fetched = await steps.fetchElectron();
    if (!fetched.ok) {
      console.error(
        `npm run dev needs Electron, which could not be downloaded (${fetched.reason}); to retry: ${RETRY_HINT}`,
      );
      process.exit(1);
    }
  }
  const sqlite = await steps.ensureSqlite();
  if (!sqlite.ok)
    console.log(`better-sqlite3 for Electron is not available (${sqlite.reason}): traces are read from the files.`);
  const env = { ...process.env, ELECTRON_CLI_ARGS: JSON.stringify(process.argv.slice(2)) };
  const child = spawn(bin, ['dev'], { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

void main();
