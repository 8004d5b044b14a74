import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskPushNotificationConfig } from '../../../src-shared/a2a';
import { createPushStore, PUSH_CONFIGS_FILE } from './store';

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

  it('persists to the records folder (owner-only) and reloads into the session map', () => {
    const dir = tempDir();
    const file = join(dir, PUSH_CONFIGS_FILE);
    const first = createPushStore({ file });
    first.put('t1', {
      id: 'a',
      url: 'https://a.example/',
      token: 'tk',
      authentication: { scheme: 'Bearer', credentials: 'cr' },
    });
    first.put('t2', { id: 'b', url: 'https://b.example/' });
    first.delete('t2', 'b');
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
    expect(again.get('t1', 'a')?.token).toBe('tk');
    expect(map.get('t1')).toHaveLength(1);
  });

  it('survives a torn file', () => {
    const dir = tempDir();
    const file = join(dir, PUSH_CONFIGS_FILE);
    writeFileSync(file, '{"t1": [');
    const store = createPushStore({ file });
    expect(store.list('t1')).toEqual([]);
    store.put('t1', { url: 'https://a.example/' });
    expect(createPushStore({ file }).list('t1')).toHaveLength(1);
  });
});
