import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFileError } from './errors';

// CAPSULE_HOME set to a file (a typo, or a path reused by mistake): every command used to print
// the system's raw words (`ENOTDIR: not a directory, mkdir '…'`, `EEXIST: file already exists`).
// Now one line says what could not be created and that the home must be a folder.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const dir = mkdtempSync(join(tmpdir(), 'capsule-home-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const home = join(dir, 'not-a-folder');
writeFileSync(home, 'x\n');
const manifest = join(dir, 'a.yaml');
writeFileSync(
  manifest,
  'name: a\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
);
const ws = join(dir, 'ws');
mkdirSync(ws);
writeFileSync(
  join(ws, 'a.yaml'),
  'name: a\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n',
);
writeFileSync(join(ws, 'formation.yaml'), 'capsules:\n  - id: a\n    manifest: a.yaml\n');

const capsule = (args: string[]) =>
  new Promise<{ code: number | null; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 30_000 },
      (err, _out, stderr) => done({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
    ),
  );

const HINT = `(records live under CAPSULE_HOME=${home}, which must be a folder you can write)`;

describe('CAPSULE_HOME that is a file', () => {
  it.each([
    [
      'run',
      ['run', '--manifest', manifest],
      /^capsule: cannot create \S+\/records\/ses_[0-9a-f]+: part of that path is a file, not a folder /,
    ],
    [
      'serve',
      ['serve', '--workspace', ws],
      /^capsule: cannot launch a \(a\.yaml\): cannot create \S+\/records\/ses_[0-9a-f]+: part of that path is a file, not a folder /,
    ],
    ['trace ls', ['trace', 'ls'], /^capsule: cannot create \S+: a file of that name is in the way /],
  ])('capsule %s says so in words and exits 1', { timeout: 60_000 }, async (_, args, line) => {
    const r = await capsule(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(line);
    expect(r.stderr.trimEnd().endsWith(HINT)).toBe(true);
    expect(r.stderr).not.toMatch(/ENOTDIR|EEXIST/);
  });
});

describe('describeFileError', () => {
  const fsError = (code: string, syscall: string, path: string) =>
    Object.assign(new Error(`${code}: raw, ${syscall} '${path}'`), { code, syscall, path });

  it('words a failure inside the home with the hint, and one outside it without', () => {
    expect(describeFileError(fsError('EROFS', 'open', '/h/records/x'), '/h')).toBe(
      'cannot open /h/records/x: the file system is read-only (records live under CAPSULE_HOME=/h, which must be a folder you can write)',
    );
    expect(describeFileError(fsError('ENOSPC', 'write', '/elsewhere/f'), '/h')).toBe(
      'cannot write /elsewhere/f: the disk is full',
    );
    expect(describeFileError(fsError('EACCES', 'mkdir', '/hx/y'), '/h')).toBe('cannot create /hx/y: permission denied');
  });

  it('leaves every other error to its own message', () => {
    expect(describeFileError(new Error('boom'), '/h')).toBeUndefined();
    expect(describeFileError(fsError('EWHATEVER', 'open', '/h/x'), '/h')).toBeUndefined();
    expect(describeFileError({ code: 'ENOENT', path: '/h' }, '/h')).toBeUndefined();
  });
});
