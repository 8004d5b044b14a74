#!/usr/bin/env node
// npm start: build (only when out/ is older than the sources), then the desktop app. A missing
// Electron binary is fetched first (with better-sqlite3 for Electron's ABI), at most once a day
// after a failure; only when that fails, or with --web, the Studio is served to a browser instead
// (web shell), with one line saying why. The web shell opens the default browser unless --no-open,
// and prints its address as the last line. Extra arguments (e.g. --workspace DIR) pass through.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
require('tsx/cjs/api').register();
const { chooseShell } = require('./desktop/choose-shell.ts');
const { desktopSteps } = require('./desktop/setup.ts');
const { buildNeeded } = require('./start/build-fresh.ts');
const { announceWebShell } = require('./start/web-start.ts');
const { spawnForwarding } = require('./forward-signals');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

async function main() {
  const why = buildNeeded(root);
  if (why) {
    console.log(`Building the Studio (${why})…`);
    const build = spawnSync(bin('electron-vite'), ['build'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const argv = process.argv.slice(2);
  const open = !argv.includes('--no-open');
  const args = argv.filter((a) => a !== '--no-open');
  const choice = await chooseShell({ args, env: process.env, ...desktopSteps(root), say: (line) => console.log(line) });
  let child;
  if (choice.shell === 'electron')
    child = spawnForwarding(choice.binary, [root, ...choice.args], { cwd: root, stdio: 'inherit' });
  else {
    child = spawnForwarding(
      process.execPath,
      [path.join(root, 'bin', 'capsule.js'), 'studio', '--web', ...choice.args],
      { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] },
    );
    void announceWebShell({ stdout: child.stdout, open, env: process.env, print: (line) => console.log(line) });
  }

  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

void main();
