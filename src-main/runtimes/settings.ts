import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_RUNTIMES, RUNTIME_ID, type Position } from '../../src-shared/contract';
import { writeFileAtomic } from '../workspace';

// The attached runtimes a Studio remembers across restarts: id, label, URL and where their area
// stands on the canvas, in the user data folder. Tokens are not here: they live in the secret
// store (runtimeTokenName). A damaged file reads as no runtimes (the user attaches again).

const FILE = 'runtimes.json';

export interface RuntimeSetting {
  id: string;
  label: string;
  url: string;
  offset: Position;
}

/** The secret store's name for a runtime's token. */
export const runtimeTokenName = (id: string) => `STUDIO_RUNTIME_${id.replace(/-/g, '_').toUpperCase()}`;

const valid = (r: unknown): r is RuntimeSetting => {
  const x = r as RuntimeSetting;
  return (
    typeof x?.id === 'string' &&
    RUNTIME_ID.test(x.id) &&
    typeof x.label === 'string' &&
    typeof x.url === 'string' &&
    /^https?:\/\//.test(x.url) &&
    Number.isFinite(x.offset?.x) &&
    Number.isFinite(x.offset?.y)
  );
};

export function readRuntimeSettings(userDataDir: string): RuntimeSetting[] {
  try {
    const data = JSON.parse(readFileSync(join(userDataDir, FILE), 'utf8'));
    return Array.isArray(data) ? data.filter(valid).slice(0, MAX_RUNTIMES) : [];
  } catch {
    return [];
  }
}

export function writeRuntimeSettings(userDataDir: string, list: RuntimeSetting[]): void {
  mkdirSync(userDataDir, { recursive: true });
  writeFileAtomic(join(userDataDir, FILE), JSON.stringify(list, null, 2));
}
