import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atomic-write-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh copy of the module, so its temporary names start again from the first. */
async function fresh() {
  vi.resetModules();
  return import('./atomic-write');
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe.each([
  [
    'atomicWriteSync',
    async (file: string, text: string, mode?: number) => (await fresh()).atomicWriteSync(file, text, { mode }),
  ],
  [
    'atomicWrite',
    async (file: string, text: string, mode?: number) => (await fresh()).atomicWrite(file, text, { mode }),
  ],
])('%s', (_name, write) => {
  it('replaces the file whole and leaves nothing else beside it', async () => {
    const file = join(dir, 'a.json');
    writeFileSync(file, 'old');
    await write(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('gives the file exactly the mode asked for, also over a file others could read', async () => {
    if (process.platform === 'win32') return;
    const file = join(dir, 'secrets.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    await write(file, 'new', 0o600);
    expect(modeOf(file)).toBe(0o600);
  });

  it('never writes into a temporary file another process left behind (it could be readable by others)', async () => {
    if (process.platform === 'win32') return;
    const file = join(dir, 'secrets.json');
    const leftover = join(dir, `.secrets.json.${process.pid}.1.tmp`);
    writeFileSync(leftover, 'stale', { mode: 0o644 });
    await write(file, 'new', 0o600);
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(0o600);
    expect(readFileSync(leftover, 'utf8')).toBe('stale');
  });

  it('removes its temporary file when the write fails, and throws the system error', async () => {
    const file = join(dir, 'taken');
    mkdirSync(file); // a folder where the file should go: the rename fails
    await expect(write(file, 'text')).rejects.toMatchObject({ code: expect.any(String) });
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});
