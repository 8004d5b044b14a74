import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listPackage } from '@electron/asar';
import { builtLoads, listFiles } from './packed-files';

// After npm run dist (CI): the unpacked app electron-builder leaves (dist/linux-unpacked) really
// holds what the main process loads: out/ in app.asar, the worker and its packages unpacked, the
// resources beside them. Usage: tsx scripts/desktop/check-package.ts dist/linux-unpacked

const root = resolve(__dirname, '..', '..');
const appDir = resolve(process.argv[2] ?? join(root, 'dist', 'linux-unpacked'));
const resources = join(appDir, 'resources');
const inAsar = new Set(
  listPackage(join(resources, 'app.asar'), { isPack: false }).map((p) => p.split('\\').join('/').replace(/^\//, '')),
);
const loads = builtLoads(root);
const missing = [
  ...loads.files.filter((f) => !inAsar.has(f)).map((f) => `app.asar: ${f}`),
  ...loads.workerFiles
    .filter((f) => !existsSync(join(resources, 'app.asar.unpacked', f)))
    .map((f) => `app.asar.unpacked: ${f}`),
  ...loads.packages
    .filter(
      (p) => p.byWorker && !existsSync(join(resources, 'app.asar.unpacked', 'node_modules', p.name, 'package.json')),
    )
    .map((p) => `app.asar.unpacked: node_modules/${p.name}`),
  ...loads.packages
    .filter((p) => !inAsar.has(`node_modules/${p.name}/package.json`))
    .map((p) => `app.asar: node_modules/${p.name}`),
  ...[
    'icon.png',
    'native/electron/better_sqlite3.node',
    ...listFiles(join(root, 'resources', 'example-workspace')).map((f) => `example-workspace/${f}`),
  ]
    .filter((f) => !existsSync(join(resources, 'resources', f)))
    .map((f) => `resources: ${f}`),
];
if (missing.length) {
  console.error(`The package in ${appDir} lacks what the app loads:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `${appDir}: every file the main process and the trace index worker load is there (${loads.files.length} in app.asar).`,
);
