#!/usr/bin/env node
// npm start: build, then the desktop app. A missing Electron binary is fetched first (with
// better-sqlite3 for Electron's ABI); only when that fails, or with --web, the Studio is served to a
// browser instead (web shell), with one line saying why. Extra arguments (e.g. --workspace DIR) pass through.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
require('tsx/cjs/api').register();
const { chooseShell } = require('./desktop/choose-shell.ts');
const { desktopSteps } = require('./desktop/setup.ts');
const { spawnForwarding } = require('./forward-signals');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

async function main() {
  const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const choice = await chooseShell({ args: process.argv.slice(2), env: process.env, ...desktopSteps(root), say: (line) => console.log(line) });
  const child =
    choice.shell === 'electron'
      ? spawnForwarding(choice.binary, [root, ...choice.args], { cwd: root, stdio: 'inherit' })
      : spawnForwarding(process.execPath, [path.join(root, 'bin', 'capsule.js'), 'studio', '--web', ...choice.args], { cwd: root, stdio: 'inherit' });

  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

void main();
