#!/usr/bin/env node
// npm start: build, then the desktop app; where the Electron binary is missing, say so in one line
// and serve the Studio to a browser instead. Extra arguments (e.g. --workspace DIR) pass through.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { electronBinary } = require('./electron-binary');
const { spawnForwarding } = require('./forward-signals');

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (build.status !== 0) process.exit(build.status ?? 1);

const electron = electronBinary();
const child = electron
  ? spawnForwarding(electron, [root, ...args], { cwd: root, stdio: 'inherit' })
  : (console.log('Electron is not installed here, so the Studio opens in your browser instead (web shell):'),
    spawnForwarding(process.execPath, [path.join(root, 'bin', 'capsule.js'), 'studio', '--web', ...args], { cwd: root, stdio: 'inherit' }));

child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
