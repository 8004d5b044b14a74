import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `capsule serve` is stopped as soon as it shows signs of life: a Ctrl-C while the formation is
// still coming up (the user saw the first capsule's line and changed their mind, or a supervisor
// gave up waiting). Every capsule launched so far ends cleanly, as on a Ctrl-C later on.
// And a workspace it cannot read is named in the one line that says why nothing started.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-serve-signals-'));
const kills: (() => void)[] = [];
afterAll(() => {
  for (const kill of kills) kill();
  rmSync(home, { recursive: true, force: true });
});

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

describe('capsule serve on Ctrl-C during its start', () => {
  it.each([
    ['the gateway', []],
    ['a Studio core (--studio)', ['--studio']],
  ])(
    'ends the capsules it launched cleanly and exits 0: formation run by %s',
    { timeout: 60_000 },
    async (_, extra: string[]) => {
      const dir = mkdtempSync(join(home, 'case-'));
      const ws = join(dir, 'ws');
      mkdirSync(ws);
      for (const n of NAMES)
        writeFileSync(
          join(ws, `${n}.yaml`),
          `name: ${n}\nversion: "0.1.0"\ninference:\n  model: rehearsal\n  driver:\n    artifact: capsule/driver-rehearsal\n`,
        );
      writeFileSync(
        join(ws, 'formation.yaml'),
        `capsules:\n${NAMES.map((n) => `  - id: ${n}\n    manifest: ${n}.yaml\n`).join('')}`,
      );
      const serve = spawn(process.execPath, [BIN, 'serve', '--workspace', ws, ...extra], {
        env: { ...process.env, CAPSULE_HOME: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      kills.push(() => serve.exitCode === null && serve.kill('SIGKILL'));
      let stderr = '';
      serve.stderr!.on('data', (d) => (stderr += d));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
        serve.once('exit', (code, signal) => r({ code, signal })),
      );
      // The first capsule's line: the rest of the formation (or the Studio's server) is still to come.
      serve.stdout!.once('data', () => serve.kill('SIGINT'));
      // It used to die of the signal: the capsules launched so far had no session_end, their
      // running files stayed behind.
      expect(await exited, stderr).toEqual({ code: 0, signal: null });
      const sessions = readdirSync(join(dir, 'records'));
      expect(sessions.length).toBeGreaterThan(0);
      for (const id of sessions) {
        const last = readFileSync(join(dir, 'records', id, 'trace.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .at(-1)!;
        expect(JSON.parse(last)).toMatchObject({
          event_type: 'session_end',
          reason: expect.stringMatching(/^stopped/),
        });
      }
      expect(readdirSync(join(dir, 'run')).filter((f) => f.endsWith('.json'))).toEqual([]);
      expect(stderr).toContain('SIGINT: ending');
    },
  );
});

describe('capsule serve on a workspace it cannot read', () => {
  it('names formation.yaml when a folder stands in its place', { timeout: 30_000 }, async () => {
    const ws = join(home, 'folder-formation');
    mkdirSync(join(ws, 'formation.yaml'), { recursive: true });
    const run = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(
        process.execPath,
        [BIN, 'serve', '--workspace', ws],
        { env: { ...process.env, CAPSULE_HOME: home }, timeout: 20_000 },
        (err, _out, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    // It used to say only "EISDIR: illegal operation on a directory, read".
    expect(run).toEqual({
      code: 1,
      stderr: `capsule: cannot read ${join(ws, 'formation.yaml')}: it is a folder, not a file\n`,
    });
  });
});
