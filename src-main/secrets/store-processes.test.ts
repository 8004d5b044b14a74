import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { privateFolder } from './private-folder';
import { createSecretStore } from './store';

// Two processes on one home (serve --studio and the web shell, or the Studio and capsule run)
// change secrets.json at once: every change lands, none is lost to the other's write-back.

const run = promisify(execFile);
const FIXTURE = resolve(__dirname, 'set-many.fixture.ts');
const ROOT = resolve(__dirname, '../..');

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('the secrets file shared by processes', () => {
  it('keeps every secret two processes set at once, and makes the studio folder only its owner may enter', async () => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-procs-'));
    const file = join(dir, 'studio', 'secrets.json');
    const writers = ['A', 'B'].map((prefix) =>
      run(process.execPath, ['--require', 'tsx/cjs', FIXTURE, file, prefix, '150'], { cwd: ROOT, timeout: 60_000 }),
    );
    await Promise.all(writers);
    const store = createSecretStore({ file });
    const names = store.view({}).secrets.map((s) => s.name);
    expect(names.length).toBe(300);
    expect(store.value('A_149')).toBe('value-149');
    expect(store.value('B_0')).toBe('value-0');
    if (process.platform !== 'win32') expect(statSync(join(dir, 'studio')).mode & 0o777).toBe(0o700);
  }, 90_000);

  it.skipIf(process.platform === 'win32')(
    'narrows a studio folder another store made readable by others to its owner',
    () => {
      dir = mkdtempSync(join(tmpdir(), 'secrets-folder-'));
      const studio = join(dir, 'studio');
      mkdirSync(studio, { mode: 0o755 });
      privateFolder(studio);
      expect(statSync(studio).mode & 0o777).toBe(0o700);
    },
  );
});
