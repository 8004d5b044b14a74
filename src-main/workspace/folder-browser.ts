import { opendir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { CoreError, FOLDER_LISTING_MAX, type FolderEntry, type FolderListing } from '../../src-shared/contract';
import { FORMATION_FILE } from './formation-file';
import { resolveWorkspaceDir } from './workspace-dir';

// The web shell's folder browser: a browser page cannot show the system's folder dialog, so the
// core lists folders for it, and only inside the user's home. Every path is resolved to where it
// really lands (symbolic links followed) before it is checked, so a link cannot lead the browser
// out of the home; such links are left out of listings and refused when asked for directly. The
// open workspace may be listed too when it lies elsewhere (the user chose it already).

/** Entries of one folder looked at, at most: a folder of a million files answers in bounded time. */
const SCAN_MAX = 20_000;

const inside = (home: string, real: string) => real === home || real.startsWith(home.endsWith(sep) ? home : home + sep);

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Lists the folders of `dir` (default: the home; relative paths and `~` as the Open dialog reads
 * them). `also`: folders outside the home that may be listed too (the open workspace's).
 */
export async function listFolders(opts: {
  dir?: string;
  hidden?: boolean;
  home?: string;
  also?: string[];
}): Promise<FolderListing> {
  const home = await realOrNull(opts.home ?? homedir());
  if (!home) throw new CoreError('not_found', 'Your home folder cannot be read.');
  const roots = [home, ...(await Promise.all((opts.also ?? []).map(realOrNull))).filter((r): r is string => !!r)];
  const typed = opts.dir ?? home;
  const dir = await realOrNull(resolveWorkspaceDir(typed, home));
  if (!dir) throw new CoreError('not_found', `${typed} does not exist.`);
  if (!roots.some((root) => inside(root, dir)))
    throw new CoreError(
      'forbidden',
      `${typed} is outside your home folder (${home}); the folder browser stays inside it (type the path to open a folder elsewhere).`,
    );
  if (!(await isFolder(dir))) throw new CoreError('invalid_input', `${typed} is not a folder.`);
  const parent = roots.includes(dir) ? null : dirname(dir);

  const folders: FolderEntry[] = [];
  let truncated = false;
  let scanned = 0;
  let handle;
  try {
    handle = await opendir(dir);
  } catch (err) {
    throw new CoreError(
      'io_error',
      `${dir} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  for await (const entry of handle) {
    if (++scanned > SCAN_MAX || folders.length >= FOLDER_LISTING_MAX) {
      truncated = true;
      break;
    }
    if (!opts.hidden && entry.name.startsWith('.')) continue;
    let path = join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      // A link is shown where it leads, and only when that is a folder inside the home.
      const target = await realOrNull(path);
      if (!target || !roots.some((root) => inside(root, target)) || !(await isFolder(target))) continue;
      path = target;
    } else if (!entry.isDirectory()) continue;
    folders.push({ name: entry.name, path, workspace: await isFile(join(path, FORMATION_FILE)) });
  }
  // Leaving the loop early (break) closes the handle; a finished loop closes it too.
  folders.sort((a, b) => a.name.localeCompare(b.name));
  return { dir, home, parent, folders, truncated };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
