import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createSecretStore } from '../secrets';
import { cliEnv } from './secrets-env';

let home: string | undefined;
afterEach(() => home && rmSync(home, { recursive: true, force: true }));

it('the CLI reads secrets the web Studio set ($CAPSULE_HOME/studio/secrets.json); the shell environment wins', () => {
  home = mkdtempSync(join(tmpdir(), 'cli-secrets-'));
  createSecretStore({ file: join(home, 'studio', 'secrets.json') }).set('API_KEY', 'from-store');
  expect(cliEnv({ CAPSULE_HOME: home }).API_KEY).toBe('from-store');
  expect(cliEnv({ CAPSULE_HOME: home, API_KEY: 'from-shell' }).API_KEY).toBe('from-shell');
  expect(cliEnv({ CAPSULE_HOME: home }).OTHER).toBeUndefined();
});
