// Finds the Electron binary without triggering its download: require('electron') tries to fetch
// a missing binary, which fails (slowly) on machines without internet.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The Electron executable, or undefined when it is not installed here. */
function electronBinary() {
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return undefined;
  }
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return undefined;
  const rel = fs.readFileSync(pathFile, 'utf8').trim();
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(dir, 'dist');
  const full = path.join(dist, rel);
  return fs.existsSync(full) ? full : undefined;
}

module.exports = { electronBinary };
