import { join, resolve } from 'node:path';
import { builtWorkerFile } from '../../trace';

// Where the desktop shell finds its files, unpackaged (out/ and resources/ of the checkout) and
// packaged (app.asar and <resources>/resources, as electron-builder.yml lays them out). One place,
// so the packaging test can hold the two to each other.

export interface ShellPaths {
  rendererDir: string;
  preload: string;
  /** The trace index's worker thread (the indexer starts it from here). */
  traceWorker: string;
  /** Example workspace, icon, native/. */
  resourcesDir: string;
  icon: string;
  /** better-sqlite3 built for Electron's ABI (npm run desktop:install puts it there). */
  electronSqlite: string;
}

export interface ShellPlace {
  isPackaged: boolean;
  /** Electron's process.resourcesPath (packaged). */
  resourcesPath: string;
  /** The folder of the main bundle (out/main). */
  mainDir: string;
}

export function shellPaths(place: ShellPlace): ShellPaths {
  const resourcesDir = place.isPackaged
    ? join(place.resourcesPath, 'resources')
    : resolve(place.mainDir, '../../resources');
  return {
    rendererDir: resolve(place.mainDir, '../renderer'),
    preload: join(place.mainDir, '../preload/index.js'),
    traceWorker: builtWorkerFile(place.mainDir),
    resourcesDir,
    icon: join(resourcesDir, 'icon.png'),
    electronSqlite: join(resourcesDir, 'native', 'electron', 'better_sqlite3.node'),
  };
}
