import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RecentWorkspace } from '../../src-shared/contract';
import { existsSync, writeFileAtomic } from './files';

// Recent workspaces, newest first, in the user data folder. A corrupt file is treated as empty
// (it is a convenience list, not data worth refusing to start over).

const FILE = 'recent-workspaces.json';
const MAX = 12;

export interface RecentList {
  list(): RecentWorkspace[];
  remember(dir: string): void;
}

export function createRecentList(userDataDir: string): RecentList {
  const file = join(userDataDir, FILE);
  const read = (): { dir: string; openedAt: string }[] => {
    try {
      const data = JSON.parse(readFileSync(file, 'utf8'));
      return Array.isArray(data)
        ? data.filter((d) => typeof d?.dir === 'string' && typeof d?.openedAt === 'string')
        : [];
    } catch {
      return [];
    }
  };
  return {
    list: () =>
      read().map((d) => ({
        dir: d.dir,
        name: basename(d.dir),
        openedAt: d.openedAt,
        exists: existsSync(join(d.dir, 'formation.yaml')),
      })),
    remember(dir) {
      const next = [{ dir, openedAt: new Date().toISOString() }, ...read().filter((d) => d.dir !== dir)].slice(0, MAX);
      mkdirSync(userDataDir, { recursive: true });
      writeFileAtomic(file, JSON.stringify(next, null, 2));
    },
  };
}
