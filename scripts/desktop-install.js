#!/usr/bin/env node
// npm run desktop:install: fetch Electron's binary (Electron's own installer) and get
// better-sqlite3 built for Electron's ABI, saying what happened. Exit 1 when Electron is not there.
'use strict';
const path = require('node:path');
require('tsx/cjs/api').register();
const { desktopSteps } = require('./desktop/setup.ts');

const root = path.resolve(__dirname, '..');

async function main() {
  // An explicit install tries again even when the last attempt failed.
  const steps = desktopSteps(root, process.env, { retry: true });
  let binary = steps.binary();
  if (binary) console.log(`Electron is installed: ${binary}`);
  else {
    const fetched = await steps.fetchElectron();
    if (!fetched.ok) {
      console.error(`Electron could not be downloaded: ${fetched.reason}`);
      process.exit(1);
    }
    binary = fetched.binary;
    console.log(`Electron is installed: ${binary}`);
  }
  const sqlite = await steps.ensureSqlite();
  if (sqlite.ok) console.log(`better-sqlite3 for Electron: ${path.relative(root, sqlite.file)}`);
  else
    console.log(
      `better-sqlite3 for Electron is not available (${sqlite.reason}): the desktop Studio reads traces from the files, slower.`,
    );
}

void main();
