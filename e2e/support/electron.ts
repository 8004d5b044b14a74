import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The Electron executable, or undefined when it is not installed (never triggers a download). */
export function electronBinary(): string | undefined {
  let dir: string;
  try {
    dir = dirname(require.resolve('electron/package.json'));
  } catch {
    return undefined;
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const full = join(
    process.env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'),
    readFileSync(pathFile, 'utf8').trim(),
  );
  return existsSync(full) ? full : undefined;
}
