import { watch, type FSWatcher } from 'node:fs';
import { STUDIO_FOLDER } from './studio-folder';

// Watches a workspace folder so edits made by another editor show up. Bursts (an editor's
// write-rename-chmod dance, git checkout) are debounced into one reload. Our own temporary files
// are ignored.

export interface FolderWatcher {
  dispose(): void;
}

export function watchFolder(
  dir: string,
  onChange: () => void,
  onError: (message: string) => void,
  debounceMs = 80,
): FolderWatcher {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher | undefined;
  const fire = (_event: string, name: string | Buffer | null) => {
    const file = name ? String(name) : '';
    // The Studio's own folder (kept conversations) is not the formation: writing it reloads nothing.
    if (
      file.endsWith('.tmp') ||
      file.split(/[\\/]/).some((p) => p === 'node_modules' || p === '.git' || p === STUDIO_FOLDER)
    )
      return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  };
  try {
    watcher = watch(dir, { recursive: true }, fire);
  } catch {
    try {
      watcher = watch(dir, fire);
    } catch (err) {
      onError(
        `Cannot watch ${dir} for changes (${(err as Error).message}); edits made outside the Studio show after reopening.`,
      );
    }
  }
  watcher?.on('error', (err) => onError(`Stopped watching ${dir}: ${err.message}`));
  return {
    dispose() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
