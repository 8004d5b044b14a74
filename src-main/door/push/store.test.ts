import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskPushNotificationConfig } from '../../../src-shared/a2a';
import { syncCallsOf, type SyncCall } from '../../sync-fs.fixture';
import { createPushStore, PUSH_CONFIGS_FILE } from './store';

// The store's file is read and written off the main thread: watched here by every synchronous
// fs call the store makes, and by the writes it hands to fs/promises (each ends in a rename of its
// temporary file into place, held in flight on demand).

const watch = vi.hoisted(() => ({ on: false, calls: [] as SyncCall[] }));
vi.mock('node:fs', async (original) => (await import('../../sync-fs.fixture')).watchedFs(await original(), watch));
const writes = vi.hoisted(() => ({ written: [] as string[], hold: false, held: [] as (() => void)[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const rename = ((from: string, to: string) => {
    writes.written.push(to);
    if (!writes.hold) return fs.rename(from, to);
    return new Promise<void>((resolve, reject) => writes.held.push(() => fs.rename(from, to).then(resolve, reject)));
  }) as typeof fs.rename;
  return { ...fs, rename, default: { ...fs, rename } };
});

describe('push store', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'capsule-push-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('assigns ids, replaces by id, lists and deletes', () => {
    const store = createPushStore();
    const a = store.put('t1', { url: 'https://a.example/' });
    expect(a.id).toMatch(/^psh_[0-9a-f]{16}$/);
    expect(a.taskId).toBe('t1');
    store.put('t1', { id: 'mine', url: 'https://b.example/' });
    store.put('t1', { id: 'mine', url: 'https://c.example/' });
    expect(store.list('t1').map((c) => c.url)).toEqual(['https://a.example/', 'https://c.example/']);
    expect(store.get('t1', 'mine')?.url).toBe('https://c.example/');
    expect(store.get('t2', 'mine')).toBeUndefined();
    expect(store.delete('t1', 'mine')).toBe(true);
    expect(store.delete('t1', 'mine')).toBe(false);
    expect(store.list('t1')).toHaveLength(1);
  });

  it('keeps at most 10 configs per task; replacing one at the cap is fine', () => {
    const store = createPushStore();
    for (let i = 0; i < 10; i++) store.put('t1', { id: `c${i}`, url: `https://h.example/${i}` });
    expect(() => store.put('t1', { url: 'https://h.example/11' })).toThrow(expect.objectContaining({ code: -32602 }));
    expect(store.put('t1', { id: 'c3', url: 'https://h.example/new' }).url).toBe('https://h.example/new');
    expect(store.list('t1')).toHaveLength(10);
    expect(store.put('t2', { url: 'https://h.example/other' }).taskId).toBe('t2');
  });

  it('persists to the records folder (owner-only) and reloads into the session map', async () => {
    const dir = tempDir();
    const file = join(dir, PUSH_CONFIGS_FILE);
    const first = createPushStore({ file });
    await first.loaded;
    first.put('t1', {
      id: 'a',
      url: 'https://a.example/',
      token: 'tk',
      authentication: { scheme: 'Bearer', credentials: 'cr' },
    });
    first.put('t2', { id: 'b', url: 'https://b.example/' });
    first.delete('t2', 'b');
    await first.flush();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      t1: [
        {
          id: 'a',
          taskId: 't1',
          url: 'https://a.example/',
          token: 'tk',
          authentication: { scheme: 'Bearer', credentials: 'cr' },
        },
      ],
    });
    const map = new Map<string, TaskPushNotificationConfig[]>();
    const again = createPushStore({ file, map });
    await again.loaded;
    expect(again.get('t1', 'a')?.token).toBe('tk');
    expect(map.get('t1')).toHaveLength(1);
  });

  it('survives a torn file', async () => {
    const dir = tempDir();
    const file = join(dir, PUSH_CONFIGS_FILE);
    writeFileSync(file, '{"t1": [');
    const store = createPushStore({ file });
    await store.loaded;
    expect(store.list('t1')).toEqual([]);
    store.put('t1', { url: 'https://a.example/' });
    await store.flush();
    const again = createPushStore({ file });
    await again.loaded;
    expect(again.list('t1')).toHaveLength(1);
  });

  it('reads and writes its file without a synchronous call, one write in flight, the latest state winning', async () => {
    const dir = tempDir();
    const file = join(dir, PUSH_CONFIGS_FILE);
    writeFileSync(file, JSON.stringify({ old: [{ id: 'o', taskId: 'old', url: 'https://o.example/' }] }));
    writes.written = [];
    const calls = await syncCallsOf(watch, async () => {
      const store = createPushStore({ file });
      // A change before the saved configs are in: the first write still carries them.
      store.put('t1', { id: 'a', url: 'https://a.example/' });
      writes.hold = true;
      await store.loaded;
      await new Promise((r) => setTimeout(r, 20));
      expect(writes.written).toHaveLength(1);
      // Changes while that write is in flight wait for it, and go out together in one more write.
      for (let i = 0; i < 5; i++) store.put('t2', { id: `b${i}`, url: `https://b.example/${i}` });
      store.delete('t2', 'b0');
      const flushed = store.flush();
      writes.hold = false;
      for (const go of writes.held.splice(0)) go();
      await flushed;
      expect(store.get('old', 'o')?.url).toBe('https://o.example/');
    });
    expect(calls).toEqual([]);
    expect(writes.written).toHaveLength(2);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(saved).sort()).toEqual(['old', 't1', 't2']);
    expect(saved.t2.map((c: TaskPushNotificationConfig) => c.id)).toEqual(['b1', 'b2', 'b3', 'b4']);
  });
});
