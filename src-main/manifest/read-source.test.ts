import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifestFile, MAX_SOURCE_BYTES, readSourceFile, sourceSizeProblem } from './index';

// What a manifest path points at is checked before it is read: a pipe used to make `capsule run`
// wait for ever, /dev/zero grew memory until the process crashed, and a 12 MB file took 17 s of
// parsing. Each is now one clear line, at once.

const dir = mkdtempSync(join(tmpdir(), 'capsule-read-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fifo = join(dir, 'pipe.yaml');
execFileSync('mkfifo', [fifo]);

const failure = (file: string) => {
  try {
    readSourceFile(file);
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  return undefined;
};

describe('readSourceFile', () => {
  it('reads a regular file whole, multi-byte text included', () => {
    const file = join(dir, 'ok.yaml');
    const text = `name: a\nversion: "1"\n# “quoted” ünïcode ✓\n${'x'.repeat(70_000)}\n`;
    writeFileSync(file, text);
    expect(readSourceFile(file)).toBe(text);
  });

  it('reads a file of exactly the limit and refuses one byte more, naming the sizes', () => {
    const at = join(dir, 'at.yaml');
    writeFileSync(at, 'a'.repeat(MAX_SOURCE_BYTES));
    expect(readSourceFile(at)).toHaveLength(MAX_SOURCE_BYTES);
    const over = join(dir, 'over.yaml');
    writeFileSync(over, 'a'.repeat(MAX_SOURCE_BYTES + 1));
    expect(failure(over)).toEqual({
      code: 'ETOOBIG',
      message: 'it is 1.0 MiB; a manifest or formation file may be at most 1.0 MiB',
    });
    writeFileSync(over, 'a'.repeat(12 * 1024 * 1024));
    expect(failure(over)?.message).toBe('it is 12.0 MiB; a manifest or formation file may be at most 1.0 MiB');
  });

  it('tells a writer which text could not be read back: the limit counts UTF-8 bytes, not characters', () => {
    expect(sourceSizeProblem('a'.repeat(MAX_SOURCE_BYTES))).toBeUndefined();
    expect(sourceSizeProblem('a'.repeat(MAX_SOURCE_BYTES + 1))).toBe(
      'would be 1.0 MiB; a manifest or formation file may be at most 1.0 MiB',
    );
    // 400,000 characters, 1.2 MB on disk.
    expect(sourceSizeProblem('€'.repeat(400_000))).toMatch(/^would be 1\.1 MiB;/);
  });

  it('refuses a pipe at once instead of waiting for a writer', () => {
    const started = Date.now();
    expect(failure(fifo)).toEqual({
      code: 'ENOTFILE',
      message: 'it is not a regular file (a pipe, device or socket); save the YAML to a file and point at that',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.skipIf(!existsSync('/dev/zero'))('refuses a device that never ends', () => {
    expect(failure('/dev/zero')?.code).toBe('ENOTFILE');
  });

  it('keeps the system error code for a missing file or a folder', () => {
    expect(failure(join(dir, 'nope.yaml'))?.code).toBe('ENOENT');
    expect(failure(dir)).toEqual({ code: 'EISDIR', message: 'it is a folder, not a file' });
  });
});

describe('loadManifestFile on what is not a manifest file', () => {
  it('turns each refusal into one located issue', () => {
    expect(loadManifestFile(fifo, {})).toEqual({
      ok: false,
      issues: [
        {
          file: fifo,
          path: '',
          message:
            'cannot read manifest: it is not a regular file (a pipe, device or socket); save the YAML to a file and point at that',
        },
      ],
    });
    expect(loadManifestFile(dir, {})).toEqual({
      ok: false,
      issues: [{ file: dir, path: '', message: 'expected a manifest file, found a folder' }],
    });
  });
});

describe('capsule run --manifest on a pipe, as a user would type it', () => {
  it('exits 1 with one line, instead of waiting for ever', { timeout: 60_000 }, async () => {
    const bin = resolve(__dirname, '../../bin/capsule.js');
    const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [bin, 'run', '--manifest', fifo],
        { env: { ...process.env, CAPSULE_HOME: join(dir, 'home') }, timeout: 30_000 },
        (err, _out, stderr) => done({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
      );
      child.stdin?.end();
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('it is not a regular file');
  });
});
