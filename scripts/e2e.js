#!/usr/bin/env node
// npm run test:e2e: build the renderer and shells, then run Playwright (arguments pass through,
// e.g. `npm run test:e2e -- e2e/smoke.spec.ts --project web`).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const run = (cmd, args) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

const built = run(bin('electron-vite'), ['build']);
if (built !== 0) process.exit(built);
process.exit(run(bin('playwright'), ['test', ...process.argv.slice(2)]));
