import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { minimatch } from 'minimatch';
import { parse } from 'yaml';

// What the packaged desktop app must carry, read from the built output (out/), and where
// electron-builder.yml puts each file, decided with the same glob library electron-builder uses.

export interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string; filter: string[] }[];
  npmRebuild?: boolean;
  linux: { target: string[]; icon: string };
  mac: { target: string; icon: string };
  win: { target: string; icon: string };
}

export function readBuilderConfig(root: string): BuilderConfig {
  return parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
}

const glob = (path: string, pattern: string) => minimatch(path, pattern, { dot: true });

/** Whether a file of the app folder (path relative to it, with /) lands in the package. */
export function inApp(config: BuilderConfig, path: string): boolean {
  // Production dependencies are always collected; `files` may only take parts of them away.
  let included = path.startsWith('node_modules/');
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (glob(path, pattern.slice(1))) included = false;
    } else if (glob(path, pattern)) included = true;
  }
  return included;
}

export const unpacked = (config: BuilderConfig, path: string) => config.asarUnpack.some((p) => glob(path, p));

/** Where a file of the checkout's folder `from` lands under the resources folder, if it is carried. */
export function asExtraResource(config: BuilderConfig, from: string, path: string): string | undefined {
  for (const r of config.extraResources) {
    if (r.from !== from) continue;
    const included = r.filter.reduce(
      (inc, p) => (p.startsWith('!') ? inc && !glob(path, p.slice(1)) : inc || glob(path, p)),
      false,
    );
    if (included) return posix.join(r.to, path);
  }
  return undefined;
}

export interface BuiltLoads {
  /** Files of out/ the main process and the worker load (relative to the app folder). */
  files: string[];
  /** Files the trace index worker thread loads from the real file system. */
  workerFiles: string[];
  /** Packages the bundles require (bare names), by who requires them. */
  packages: { name: string; byWorker: boolean }[];
}

const REQUIRE = /require\("([^"]+)"\)/g;

/** Follows require() calls through out/main from the main bundle and the worker bundle. */
export function builtLoads(root: string): BuiltLoads {
  const files = new Set<string>();
  const workerFiles = new Set<string>();
  const packages = new Map<string, boolean>();
  const follow = (file: string, byWorker: boolean) => {
    const rel = relative(root, file).split('\\').join('/');
    if ((byWorker ? workerFiles : files).has(rel)) return;
    (byWorker ? workerFiles : files).add(rel);
    files.add(rel);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(REQUIRE)) {
      if (spec.startsWith('.')) follow(join(dirname(file), spec), byWorker);
      else if (!spec.startsWith('node:') && spec !== 'electron') {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        packages.set(name, (packages.get(name) ?? false) || byWorker);
      }
    }
  };
  follow(join(root, 'out', 'main', 'index.js'), false);
  follow(join(root, 'out', 'main', 'trace-index-worker.js'), true);
  files.add('out/preload/index.js');
  const html = readFileSync(join(root, 'out', 'renderer', 'index.html'), 'utf8');
  files.add('out/renderer/index.html');
  for (const [, ref] of html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)) files.add(`out/renderer/${ref}`);
  return {
    files: [...files].sort(),
    workerFiles: [...workerFiles].sort(),
    packages: [...packages].map(([name, byWorker]) => ({ name, byWorker })),
  };
}

/** Every file under a folder, relative to it, with /. */
export function listFiles(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}
