import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { lockSync } from 'proper-lockfile';
import { CoreError, DEFAULT_ENVIRONMENT, type SecretsView, type SecretStoreInfo } from '../../src-shared/contract';
import { atomicWriteSync } from '../fs';
import { privateFolder } from './private-folder';

// The Studio's secret store: values manifests interpolate as ${NAME}, set by name in the UI, kept
// in one file only the user can read (0600). On the desktop each value is also sealed with the OS
// keychain (Electron's safeStorage, passed in as a cipher); the web shell and CLI keep them plain
// in the user-only file. Environments (e.g. dev, prod) are named sets of values; launches read the
// chosen one, then `default`. Values leave this module only through value(), for interpolation.

/** Seals values with the OS keychain (the desktop's safeStorage). */
export interface SecretCipher {
  seal(plain: string): string;
  open(sealed: string): string;
}

export interface SecretStoreOptions {
  file: string;
  cipher?: SecretCipher;
}

export interface SecretStore {
  readonly info: SecretStoreInfo;
  /** Names, environments, and which names the process environment overrides. */
  view(processEnv: Record<string, string | undefined>): SecretsView;
  set(name: string, value: string, environment?: string): void;
  delete(name: string, environment?: string): void;
  useEnvironment(environment: string): void;
  /** The value a launch gets for a name (chosen environment, then default), or undefined. */
  value(name: string): string | undefined;
}

interface StoreFile {
  version: 1;
  sealed: boolean;
  environment: string;
  values: Record<string, Record<string, string>>;
}

/** The file is small by nature; a bigger one is not ours. */
const MAX_FILE_BYTES = 1024 * 1024;
/** How long a change waits for another process's change to the file (each takes milliseconds). */
const LOCK_WAIT_MS = 5_000;
/** A lock older than this was left by a process that died holding it (proper-lockfile's minimum). */
const LOCK_STALE_MS = 5_000;

/** Blocks this thread for `ms`: the store's API is synchronous, and a wait here is a few ms. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const empty = (sealed: boolean): StoreFile => ({ version: 1, sealed, environment: DEFAULT_ENVIRONMENT, values: {} });

export function createSecretStore(opts: SecretStoreOptions): SecretStore {
  const sealed = Boolean(opts.cipher);
  const info: SecretStoreInfo = { kind: sealed ? 'keychain' : 'file', where: opts.file };

  const read = (): StoreFile => {
    if (!existsSync(opts.file)) return empty(sealed);
    if (statSync(opts.file).size > MAX_FILE_BYTES)
      throw new CoreError(
        'io_error',
        `The secrets file ${opts.file} is larger than 1 MB; it is not a Studio secrets file.`,
      );
    let data: StoreFile;
    try {
      data = JSON.parse(readFileSync(opts.file, 'utf8')) as StoreFile;
    } catch {
      throw new CoreError(
        'io_error',
        `The secrets file ${opts.file} is damaged (not JSON); move it away to start over.`,
      );
    }
    if (data.version !== 1 || typeof data.values !== 'object' || data.values === null)
      throw new CoreError('io_error', `The secrets file ${opts.file} is not in a format this Studio knows.`);
    if (data.sealed !== sealed)
      throw new CoreError(
        'io_error',
        `The secrets file ${opts.file} was written by the ${data.sealed ? 'desktop app (keychain)' : 'web shell or CLI'}; this shell cannot read it.`,
      );
    return data;
  };

  // Owner-only from the temporary file's first byte, so the values are never readable by others.
  const write = (data: StoreFile) => atomicWriteSync(opts.file, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });

  /**
   * A change reads the file, edits it and writes it back while holding a lock every process using
   * the file honours (the web shell, serve --studio and capsule run may share one home): without
   * it two processes each write back their own read and one's secret is silently lost. A lock not
   * had within LOCK_WAIT_MS is an error that says nothing was changed, never a lost write.
   */
  const change = (edit: (data: StoreFile) => void) => {
    privateFolder(dirname(opts.file));
    const deadline = Date.now() + LOCK_WAIT_MS;
    let release: (() => void) | undefined;
    while (!release) {
      try {
        // The lock is a folder beside the file (secrets.json.lock); realpath: false lets it be
        // taken before the file exists. A lock lost to staleness while held changes nothing here
        // (the write is done by then), so it is not an error thrown from a timer.
        release = lockSync(opts.file, { realpath: false, stale: LOCK_STALE_MS, onCompromised: () => undefined });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ELOCKED' || Date.now() > deadline) {
          const why =
            code === 'ELOCKED' ? `another process has held it for ${LOCK_WAIT_MS / 1000} s` : (err as Error).message;
          throw new CoreError(
            'io_error',
            `Cannot lock the secrets file ${opts.file} (${why}); nothing was changed, try again.`,
          );
        }
        sleepSync(5 + Math.floor(Math.random() * 20));
      }
    }
    try {
      const data = read();
      edit(data);
      write(data);
    } finally {
      release();
    }
  };

  return {
    info,
    view(processEnv) {
      const data = read();
      const environments = [...new Set([DEFAULT_ENVIRONMENT, data.environment, ...Object.keys(data.values)])].sort();
      const names = new Map<string, string[]>();
      for (const env of environments)
        for (const name of Object.keys(data.values[env] ?? {})) names.set(name, [...(names.get(name) ?? []), env]);
      const secrets = [...names]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, envs]) => ({ name, environments: envs, shadowedByProcess: processEnv[name] !== undefined }));
      return { store: info, environment: data.environment, environments, secrets };
    },
    set(name, value, environment = DEFAULT_ENVIRONMENT) {
      const stored = opts.cipher ? opts.cipher.seal(value) : value;
      change((data) => {
        (data.values[environment] ??= {})[name] = stored;
      });
    },
    delete(name, environment = DEFAULT_ENVIRONMENT) {
      change((data) => {
        const values = data.values[environment];
        if (!values || !(name in values))
          throw new CoreError('not_found', `No secret ${name} in the ${environment} environment.`);
        delete values[name];
        if (Object.keys(values).length === 0) delete data.values[environment];
      });
    },
    useEnvironment(environment) {
      change((data) => {
        data.environment = environment;
      });
    },
    value(name) {
      const data = read();
      const stored = data.values[data.environment]?.[name] ?? data.values[DEFAULT_ENVIRONMENT]?.[name];
      if (stored === undefined) return undefined;
      return opts.cipher ? opts.cipher.open(stored) : stored;
    },
  };
}

/**
 * The environment a launch interpolates from: the process environment first (it wins when it
 * holds the name), then the store. Only looked-up names come from the store; spreading or listing
 * this object yields the process environment alone, so secrets never travel wholesale (e.g. into
 * a harness's environment).
 */
export function launchEnv(
  base: Record<string, string | undefined>,
  store: SecretStore,
): Record<string, string | undefined> {
  return new Proxy(base, {
    get(target, key) {
      if (typeof key !== 'string') return undefined;
      const own = target[key];
      if (own !== undefined) return own;
      try {
        return store.value(key);
      } catch {
        return undefined; // a damaged store reads as empty here; the settings panel names the problem
      }
    },
  });
}
