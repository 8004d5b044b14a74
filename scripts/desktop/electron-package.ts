import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Where the electron package sits and whether its binary is there, read from the files its own
// installer writes (path.txt, dist/). Never `require('electron')`: that starts a download.

export interface ElectronPackage {
  /** The package folder (node_modules/electron). */
  dir: string;
  version: string;
}

export function findElectronPackage(from: string): ElectronPackage | undefined {
  let file: string;
  try {
    file = require.resolve('electron/package.json', { paths: [from] });
  } catch {
    return undefined;
  }
  const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
  return { dir: dirname(file), version };
}

/** The Electron executable, or undefined when its binary has not been fetched. */
export function electronBinary(pkg: ElectronPackage, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const pathFile = join(pkg.dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const full = join(env.ELECTRON_OVERRIDE_DIST_PATH || join(pkg.dir, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(full) ? full : undefined;
}
