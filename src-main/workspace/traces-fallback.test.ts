import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import { createTraceWriter } from '../trace';
import { syntheticSessionEvents } from '../trace/synthetic';
import type { StudioContext } from './context';
import { createTracesService } from './traces';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

it('answers from the trace files, and says so, when the index cannot open', async () => {
  const home = mkdtempSync(join(tmpdir(), 'traces-fallback-'));
  dirs.push(home);
  const id = newSessionId();
  const w = createTraceWriter(join(home, 'records', id, 'trace.jsonl'), id);
  for (const e of syntheticSessionEvents({ tasks: 3, capsule: 'fallback-worker' })) w.append(e);
  w.dispose();
  const ctx = {
    config: { userDataDir: home, resourcesDir: home, recordsRoot: join(home, 'records') },
    sessions: { running: () => [], bySessionId: () => undefined },
  } as unknown as StudioContext;
  // A folder where the database file should be: SQLite cannot open it.
  const svc = createTracesService(ctx, { dbPath: home });
  try {
    const list = await svc.handlers['sessions.list']({ capsule: 'fallback-worker' });
    expect(list.store.available).toBe(false);
    expect(list.store.message).toMatch(/unavailable/);
    expect(list.sessions.map((s) => [s.id, s.capsule])).toEqual([[id, 'fallback-worker']]);
    const first = await svc.handlers['sessions.events']({ sessionId: id, limit: 10 });
    expect(first.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const rest = await svc.handlers['sessions.events']({ sessionId: id, after: first.next!, limit: 100 });
    expect(rest.events[0].seq).toBe(10);
    expect(rest.events[rest.events.length - 1].event_type).toBe('session_end');
    expect(rest.next).toBeNull();
  } finally {
    svc.dispose();
  }
});

it('loads better-sqlite3 through the runtime binding the shell gives, and falls back when it cannot', async () => {
  const home = mkdtempSync(join(tmpdir(), 'traces-binding-'));
  dirs.push(home);
  const id = newSessionId();
  const w = createTraceWriter(join(home, 'records', id, 'trace.jsonl'), id);
  for (const e of syntheticSessionEvents({ tasks: 1, capsule: 'binding-worker' })) w.append(e);
  w.dispose();
  // Electron points at its own ABI build; a binary that is not there must not break the Studio.
  const config = {
    userDataDir: home,
    resourcesDir: home,
    recordsRoot: join(home, 'records'),
    sqliteBinding: join(home, 'missing', 'better_sqlite3.node'),
  };
  const ctx = { config, sessions: { running: () => [], bySessionId: () => undefined } } as unknown as StudioContext;
  const svc = createTracesService(ctx);
  try {
    const list = await svc.handlers['sessions.list']({});
    expect(list.store.available).toBe(false);
    expect(list.sessions.map((s) => s.capsule)).toEqual(['binding-worker']);
  } finally {
    svc.dispose();
  }
});
