import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretStore, launchEnv, type SecretCipher } from './store';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
const file = () => join((dir = mkdtempSync(join(tmpdir(), 'secrets-'))), 'studio', 'secrets.json');

describe('the secret store', () => {
  it('sets, replaces and deletes by name in a file only the user can read; the view names, never values', () => {
    const store = createSecretStore({ file: file() });
    store.set('API_KEY', 'sk-first');
    store.set('API_KEY', 'sk-second');
    expect(store.value('API_KEY')).toBe('sk-second');
    expect(statSync(store.info.where).mode & 0o777).toBe(0o600);
    const view = store.view({});
    expect(view).toEqual({
      store: { kind: 'file', where: store.info.where },
      environment: 'default',
      environments: ['default'],
      secrets: [{ name: 'API_KEY', environments: ['default'], shadowedByProcess: false }],
    });
    expect(JSON.stringify(view)).not.toContain('sk-');
    store.delete('API_KEY');
    expect(store.value('API_KEY')).toBeUndefined();
    expect(() => store.delete('API_KEY')).toThrow(/No secret API_KEY/);
  });

  it('a launch reads the chosen environment, then default; the process environment wins', () => {
    const store = createSecretStore({ file: file() });
    store.set('TOKEN', 'dev-token', 'dev');
    store.set('TOKEN', 'prod-token', 'prod');
    store.set('REGION', 'eu');
    const env = launchEnv({ PATH: '/bin' }, store);
    expect(env.TOKEN).toBeUndefined();
    store.useEnvironment('prod');
    expect([env.TOKEN, env.REGION]).toEqual(['prod-token', 'eu']);
    store.useEnvironment('dev');
    expect(env.TOKEN).toBe('dev-token');
    expect(launchEnv({ TOKEN: 'from-shell' }, store).TOKEN).toBe('from-shell');
    expect(store.view({ TOKEN: 'x' }).secrets.find((s) => s.name === 'TOKEN')).toEqual({
      name: 'TOKEN',
      environments: ['dev', 'prod'],
      shadowedByProcess: true,
    });
    // Spreading the launch environment (a harness's env) carries the process environment only.
    expect({ ...env }).toEqual({ PATH: '/bin' });
  });

  it('seals values with the keychain cipher on the desktop; the file never holds them in clear', () => {
    const cipher: SecretCipher = {
      seal: (v) => Buffer.from(`sealed:${v}`).toString('base64'),
      open: (s) =>
        Buffer.from(s, 'base64')
          .toString()
          .replace(/^sealed:/, ''),
    };
    const store = createSecretStore({ file: file(), cipher });
    store.set('API_KEY', 'sk-live-123');
    expect(store.info.kind).toBe('keychain');
    expect(readFileSync(store.info.where, 'utf8')).not.toContain('sk-live-123');
    expect(store.value('API_KEY')).toBe('sk-live-123');
    // The web shell cannot read a sealed file, and says why.
    expect(() => createSecretStore({ file: store.info.where }).view({})).toThrow(/written by the desktop app/);
  });

  it('a damaged file is named, and reads as empty for launches', () => {
    const f = file();
    const store = createSecretStore({ file: f });
    store.set('A', 'one');
    writeFileSync(f, '{not json');
    expect(() => store.view({})).toThrow(/damaged/);
    expect(launchEnv({}, store).A).toBeUndefined();
  });
});
