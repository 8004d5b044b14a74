import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createSecretStore } from '../secrets';
import { cliEnv } from './secrets-env';

const BIN = resolve(__dirname, '../../bin/capsule.js');
let home: string | undefined;
afterEach(() => home && rmSync(home, { recursive: true, force: true }));

it('the CLI reads secrets the web Studio set ($CAPSULE_HOME/studio/secrets.json); the shell environment wins', () => {
  home = mkdtempSync(join(tmpdir(), 'cli-secrets-'));
  createSecretStore({ file: join(home, 'studio', 'secrets.json') }).set('API_KEY', 'from-store');
  expect(cliEnv({ CAPSULE_HOME: home }).API_KEY).toBe('from-store');
  expect(cliEnv({ CAPSULE_HOME: home, API_KEY: 'from-shell' }).API_KEY).toBe('from-shell');
  expect(cliEnv({ CAPSULE_HOME: home }).OTHER).toBeUndefined();
});

it('capsule run on a damaged secrets file names the file and what is wrong, not "export it"', async () => {
  home = mkdtempSync(join(tmpdir(), 'cli-secrets-'));
  mkdirSync(join(home, 'studio'));
  writeFileSync(join(home, 'studio', 'secrets.json'), '{"version": 1, "values": {');
  const manifest = join(home, 'm.yaml');
  writeFileSync(
    manifest,
    'name: keyed\nversion: "1"\ninference:\n  model: rehearsal\n  system_prompt: "key ${CAPSULE_TEST_KEY}"\n  driver:\n    artifact: capsule/driver-rehearsal\n',
  );
  const env: NodeJS.ProcessEnv = { ...process.env, CAPSULE_HOME: home };
  delete env.CAPSULE_TEST_KEY;
  const { code, stderr } = await new Promise<{ code: number; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [BIN, 'run', '--manifest', manifest, '--port', '0'],
      { env, timeout: 30_000 },
      (err, _out, stderr) => done({ code: err ? 1 : 0, stderr }),
    ),
  );
  expect(code).toBe(1);
  expect(stderr).toContain(
    `environment variable CAPSULE_TEST_KEY is not set, and the secrets file cannot be read: The secrets file ${join(home, 'studio', 'secrets.json')} is damaged (not JSON)`,
  );
  expect(stderr).not.toContain('export CAPSULE_TEST_KEY');
}, 40_000);
