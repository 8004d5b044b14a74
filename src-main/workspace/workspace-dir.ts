import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

// Where a typed workspace folder is. A relative name ("first", "work/agents") means a folder under
// the user's home, never under the Studio's own working directory (the app's checkout, for
// `npm start`), where it would be lost among the app's files; `~/x` is the home's x as in a shell.

/** The absolute folder a typed workspace path names; `root` is where relative names go (default: the home). */
export function resolveWorkspaceDir(dir: string, root: string = homedir()): string {
  if (dir === '~') return root;
  if (dir.startsWith('~/')) return join(homedir(), dir.slice(2));
  return isAbsolute(dir) ? resolve(dir) : resolve(root, dir);
}
