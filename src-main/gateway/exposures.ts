import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { atomicWriteSync, fileStamp, fileStampSync, NO_FILE } from '../fs';

// Which capsules are exposed, and the hash of each one's bearer token, in <dataDir>/exposures.json.
// The token itself is returned once (enable, rotate) and never stored. Another process (the CLI)
// may edit the file: it is re-read when it changes, and a token that disappeared counts as revoked.
// A gateway call reads only what is held in memory: a file watcher and a periodic recheck
// (RECHECK_MS, asynchronous) keep it current, so no call waits on the disk. The commands that change
// the file (enable, rotate, revoke) re-read it first, so they never overwrite another process's edit.

export const EXPOSURES_FILE = 'exposures.json';
/** How often the file is checked for an edit the watcher missed (a network disk, a platform without one). */
export const RECHECK_MS = 1000;

const record = z.object({
  capsule: z.string().min(1),
  tokenId: z.string().min(1),
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  compat03: z.boolean().default(false),
  createdAt: z.string(),
  rotatedAt: z.string().optional(),
});
const fileSchema = z.object({ version: z.literal(1), exposures: z.array(record) });

export type Exposure = z.infer<typeof record>;
/** What callers may show: everything but the hash. */
export type ExposureInfo = Omit<Exposure, 'tokenHash'>;

export interface ExposureStore {
  list(): ExposureInfo[];
  get(capsule: string): ExposureInfo | undefined;
  /** Exposes a capsule with a fresh token (returned once). Throws if it is already exposed. */
  enable(capsule: string, opts?: { compat03?: boolean }): { exposure: ExposureInfo; token: string };
  /** Replaces the token: the old one stops working at once. */
  rotate(capsule: string): { exposure: ExposureInfo; token: string };
  /** Ends the exposure and its token at once; false when it was not exposed. */
  revoke(capsule: string): boolean;
  setCompat03(capsule: string, on: boolean): ExposureInfo;
  /**
   * Resolves once the copy in memory is at least as new as the file was when this was called: a
   * revoke or rotate written by another process (`capsule expose --revoke`) holds for the very next
   * request. One look at the file (an asynchronous stat) serves every request waiting meanwhile.
   */
  current(): Promise<void>;
  /** The exposure a presented token opens, compared in constant time against every stored hash. */
  authenticate(token: string): ExposureInfo | undefined;
  /** Called with the token ids that stopped being valid (revoked, rotated, removed by another process). */
  onRevoked(listener: (tokenIds: string[]) => void): () => void;
  dispose(): void;
}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();
const info = ({ tokenHash: _h, ...rest }: Exposure): ExposureInfo => rest;
const newToken = () => ({
  token: `capsule_${randomBytes(32).toString('base64url')}`,
  tokenId: `tok_${randomBytes(6).toString('hex')}`,
});

/** The exposures a file's text holds; a damaged file exposes nothing rather than something unintended. */
const exposuresOf = (text: string): Exposure[] => {
  const parsed = fileSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data.exposures : [];
};

export function createExposureStore(dataDir: string): ExposureStore {
  const file = join(dataDir, EXPOSURES_FILE);
  mkdirSync(dataDir, { recursive: true });
  let exposures: Exposure[] = [];
  let stamp = '';
  const listeners = new Set<(ids: string[]) => void>();

  const read = (): Exposure[] => (existsSync(file) ? exposuresOf(readFileSync(file, 'utf8')) : []);
  const notify = (before: Exposure[]) => {
    const now = new Set(exposures.map((e) => e.tokenId));
    const gone = before.map((e) => e.tokenId).filter((id) => !now.has(id));
    if (gone.length) for (const l of listeners) l(gone);
  };
  const apply = (next: Exposure[], s: string) => {
    const before = exposures;
    exposures = next;
    stamp = s;
    notify(before);
  };
  /** Re-reads the file now if it changed: the commands that edit it, before they do. */
  const refresh = () => {
    const s = fileStampSync(file);
    if (s === stamp) return;
    let next: Exposure[];
    try {
      next = read();
    } catch {
      next = [];
    }
    apply(next, s);
  };
  /**
   * The same off the main thread's way (each request, the watcher, a periodic recheck): one look at
   * a time. Whoever asks while a look is under way waits for the next one, which begins after it:
   * a look that began before they asked may have missed an edit made just before.
   */
  let checking: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let disposed = false;
  const look = async () => {
    for (let tries = 0; tries < 3 && !disposed; tries++) {
      const seen = stamp;
      const s = await fileStamp(file);
      if (s === stamp || disposed) return;
      let held: Exposure[] = [];
      if (s !== NO_FILE) {
        try {
          held = exposuresOf(await readFile(file, 'utf8'));
        } catch (err) {
          // Gone between the stat and the read: look again at it as it is now.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        }
      }
      // A command re-read or rewrote the file meanwhile: what it holds is newer.
      if (stamp === seen && !disposed) apply(held, s);
      return;
    }
  };
  const recheck = (): Promise<void> => {
    if (!checking) return (checking = look().finally(() => (checking = undefined)));
    return (next ??= checking.then(() => {
      next = undefined;
      return recheck();
    }));
  };
  const save = (next: Exposure[]) => {
    const before = exposures;
    atomicWriteSync(file, `${JSON.stringify({ version: 1, exposures: next }, null, 2)}\n`, { mode: 0o600 });
    exposures = next;
    stamp = fileStampSync(file);
    notify(before);
  };
  const held = (capsule: string) => exposures.find((e) => e.capsule === capsule);
  const find = (capsule: string) => {
    refresh();
    return held(capsule);
  };
  const must = (capsule: string) => {
    const e = find(capsule);
    if (!e) throw new Error(`${capsule} is not exposed`);
    return e;
  };

  refresh();
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dataDir, (_kind, name) => {
      if (name === EXPOSURES_FILE) void recheck();
    });
    watcher.unref();
  } catch {
    // Without a watcher, the periodic recheck still sees other processes' edits.
  }
  const timer = setInterval(() => void recheck(), RECHECK_MS);
  timer.unref();

  return {
    list: () => exposures.map(info),
    get: (capsule) => {
      const e = held(capsule);
      return e && info(e);
    },
    enable(capsule, opts = {}) {
      if (find(capsule)) throw new Error(`${capsule} is already exposed; rotate its token to get a new one`);
      const { token, tokenId } = newToken();
      const e: Exposure = {
        capsule,
        tokenId,
        tokenHash: hashOf(token).toString('hex'),
        compat03: opts.compat03 ?? false,
        createdAt: new Date().toISOString(),
      };
      save([...exposures, e]);
      return { exposure: info(e), token };
    },
    rotate(capsule) {
      const old = must(capsule);
      const { token, tokenId } = newToken();
      const e: Exposure = {
        ...old,
        tokenId,
        tokenHash: hashOf(token).toString('hex'),
        rotatedAt: new Date().toISOString(),
      };
      save(exposures.map((x) => (x.capsule === capsule ? e : x)));
      return { exposure: info(e), token };
    },
    revoke(capsule) {
      if (!find(capsule)) return false;
      save(exposures.filter((x) => x.capsule !== capsule));
      return true;
    },
    setCompat03(capsule, on) {
      const e = { ...must(capsule), compat03: on };
      save(exposures.map((x) => (x.capsule === capsule ? e : x)));
      return info(e);
    },
    current: recheck,
    authenticate(token) {
      const presented = hashOf(token);
      let match: Exposure | undefined;
      // Every hash is compared (no early exit), each in constant time.
      for (const e of exposures) {
        if (timingSafeEqual(presented, Buffer.from(e.tokenHash, 'hex')) && !match) match = e;
      }
      return match && info(match);
    },
    onRevoked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      disposed = true;
      clearInterval(timer);
      watcher?.close();
      listeners.clear();
    },
  };
}
