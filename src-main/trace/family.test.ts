import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import { createTraceStore, createTraceWriter, type TraceStore } from './index';
import { SCHEMA_VERSION } from './schema';
import { syntheticSessionEvents } from './synthetic';

// A fork's session_start names the session, task and turn it came from: the index keeps that
// origin, and answers a session's family (what it descends from, and its forks).

let dir: string;
let records: string;
let store: TraceStore | undefined;

function writeSession(forkedFrom?: { session_id: string; task_id: string; turn: number }): string {
  const id = newSessionId();
  const w = createTraceWriter(join(records, id, 'trace.jsonl'), id);
  for (const e of syntheticSessionEvents({ tasks: 1, turns: 2 })) {
    w.append(
      e.event_type === 'session_start' && forkedFrom
        ? { ...e, forked_from: { ...forkedFrom, driver: 'real', edited: true } }
        : e,
    );
  }
  w.dispose();
  return id;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-family-'));
  records = join(dir, 'records');
  mkdirSync(records);
});
afterEach(() => {
  store?.dispose();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('fork family in the trace index', () => {
  it('indexes forked_from and answers ancestors and forks', () => {
    const root = writeSession();
    const a = writeSession({ session_id: root, task_id: 'tsk_root1', turn: 1 });
    const b = writeSession({ session_id: root, task_id: 'tsk_root1', turn: 2 });
    const aa = writeSession({ session_id: a, task_id: 'tsk_a1', turn: 1 });
    writeSession(); // unrelated
    store = createTraceStore({ path: join(dir, 'studio.db') });
    store.syncRecords(records);

    expect(store.getSession(root)!.forkedFrom).toBeNull();
    expect(store.getSession(b)!.forkedFrom).toEqual({ sessionId: root, taskId: 'tsk_root1', turn: 2 });

    const ofRoot = store.family(root);
    expect(ofRoot.ancestors).toEqual([]);
    expect(ofRoot.forks.map((s) => s.id).sort()).toEqual([a, b].sort());

    const ofFork = store.family(aa);
    expect(ofFork.ancestors.map((s) => s.id)).toEqual([a, root]);
    expect(ofFork.forks).toEqual([]);
    expect(store.listSessions().find((s) => s.id === aa)!.forkedFrom).toMatchObject({ sessionId: a, turn: 1 });
  });

  it('rebuilds an index of the schema before forks were indexed', () => {
    const root = writeSession();
    const fork = writeSession({ session_id: root, task_id: 'tsk_x', turn: 1 });
    const path = join(dir, 'studio.db');
    const old = new Database(path);
    old.exec('CREATE TABLE sessions (sid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, parent_id TEXT)');
    old.pragma(`user_version = ${SCHEMA_VERSION - 1}`);
    old.close();
    store = createTraceStore({ path });
    store.syncRecords(records);
    expect(store.family(root).forks.map((s) => s.id)).toEqual([fork]);
  });
});
