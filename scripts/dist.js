#!/usr/bin/env node
// npm run dist: the installers for this OS (electron-builder.yml: AppImage and deb on Linux, dmg on
// macOS, nsis on Windows) into dist/. Builds out/ and better-sqlite3 for Electron's ABI first; extra
// arguments go to electron-builder (e.g. `npm run dist -- --linux deb`).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
require('tsx/cjs/api').register();
const { desktopSteps } = require('./desktop/setup.ts');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const run = (cmd, args) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

async function main() {
  const built = run(bin('electron-vite'), ['build']);
  if (built !== 0) process.exit(built);
  const sqlite = await desktopSteps(root, process.env, { retry: true }).ensureSqlite();
  if (!sqlite.ok) {
    console.error(
      `better-sqlite3 for Electron is not available (${sqlite.reason}); an installer without it would read traces from the files only.`,
    );
    process.exit(1);
  }
  process.exit(run(bin('electron-builder'), process.argv.slice(2)));
}

void main();
