import { chmodSync, mkdirSync } from 'node:fs';

/**
 * Creates a folder only its owner may enter (0700), or narrows an existing one to that: the
 * Studio's folder holds secrets, tokens and its signing key, and a folder other users can list
 * tells them what is there. The mode given to mkdir is masked by umask, hence the chmod.
 */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
}
