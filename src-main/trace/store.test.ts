import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import { createTraceStore, createTraceWriter, type TraceStore } from './index';
import { syntheticSessionEvents, type SyntheticOptions } from './synthetic';

let dir: string;
let records: string;
const stores: TraceStore[] = [];
const open = (path = join(dir, 'studio.db')) => {
  const s = createTraceStore({ path });
  stores.push(s);
  return s;
};

function writeSession(o: SyntheticOptions, id = newSessionId()): { id: string; path: string } {
  const path = join(records, id, 'trace.jsonl');
  const w = createTraceWriter(path, id);
  for (const e of syntheticSessionEvents(o)) w.append(e);
  w.dispose();
  return { id, path };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-store-'));
  records = join(dir, 'records');
  mkdirSync(records);
});
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('trace store', () => {
  it('ingests a session: summary, tasks, paged events, final task', () => {
    const { id } = writeSession({ tasks: 3, turns: 2 });
    const store = open();
    const sync = store.syncRecords(records);
    expect(sync.files).toBe(1);
    expect(sync.added).toBe(2 + 3 * 7);
    const s = store.getSession(id)!;
    expect(s).toMatchObject({
      capsule: 'my-worker',
      version: '0.1.0',
      status: 'ended',
      tasks: 3,
      tokensIn: 1800,
      tokensOut: 480,
      events: 23,
    });
    const tasks = store.listTasks(id);
    expect(tasks.map((t) => t.ord)).toEqual([1, 2, 3]);
    expect(tasks[1]).toMatchObject({
      turns: 2,
      tokensIn: 600,
      tokensOut: 160,
      state: 'TASK_STATE_COMPLETED',
      exitStatus: 'ok',
      answer: 'Report 1 is summarised',
    });
    const got = store.getTask(tasks[0].id)!;
    expect(got.sessionId).toBe(id);
    expect(got.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.task.artifacts?.[0].parts[0].text).toBe('Report 0 is summarised');

    const page1 = store.events(id, { limit: 10 });
    expect(page1.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const page2 = store.events(id, { afterSeq: page1.nextSeq!, limit: 100 });
    expect(page2.events[0].seq).toBe(10);
    expect(page2.nextSeq).toBeNull();
    const inf = store.events(id, { task: tasks[2].id, types: ['inference'] });
    expect(inf.events.map((e) => (e as { turn?: number }).turn)).toEqual([1, 2]);
  });

  it('is incremental by byte offset and keeps a door-saved task', () => {
    const id = newSessionId();
    const path = join(records, id, 'trace.jsonl');
    const w = createTraceWriter(path, id);
    const events = [...syntheticSessionEvents({ tasks: 2, end: false })];
    events.slice(0, 5).forEach((e) => w.append(e));
    w.flushSync();
    const store = open();
    expect(store.ingestFile(path).added).toBe(5);
    expect(store.getSession(id)!.status).toBe('running');
    events.slice(5).forEach((e) => w.append(e));
    w.append({ event_type: 'session_end', reason: 'idle', tasks: 2, tokens_in: 0, tokens_out: 0 });
    w.dispose();
    const r = store.ingestFile(path);
    expect(r.added).toBe(events.length - 5 + 1);
    expect(store.ingestFile(path).added).toBe(0);
    expect(store.getSession(id)).toMatchObject({
      status: 'ended',
      endReason: 'idle',
      tasks: 2,
      events: events.length + 1,
    });
    const taskId = store.listTasks(id)[0].id;
    store.saveTask(id, {
      id: taskId,
      contextId: 'ctx-0',
      status: { state: 'TASK_STATE_COMPLETED' },
      history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    });
    expect(store.getTask(taskId)!.task.history?.[0].parts[0].text).toBe('hi');
    // A door may save a task before its trace lines are indexed: it keeps its own ordinal.
    const early = `tsk_${'e'.repeat(32)}`;
    store.saveTask(id, { id: early, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(store.listTasks(id).map((t) => t.ord)).toEqual([1, 2, 3]);
    expect(store.getTask(early)!.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('keeps every line across blocks when a session is indexed a little at a time', async () => {
    const id = newSessionId();
    const path = join(records, id, 'trace.jsonl');
    const w = createTraceWriter(path, id);
    const events = [...syntheticSessionEvents({ tasks: 90, turns: 2 })]; // 632 lines: 3 blocks
    const store = open();
    // Cuts inside a block, exactly on a block boundary (256) and past the second one.
    for (const [from, to] of [
      [0, 100],
      [100, 256],
      [256, 257],
      [257, 600],
      [600, events.length],
    ]) {
      events.slice(from, to).forEach((e) => w.append(e));
      w.flushSync();
      expect(store.ingestFile(path).added).toBe(to - from);
    }
    w.dispose();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const seen: unknown[] = [];
    for (let after: number | null = -1; after !== null;) {
      const page = store.events(id, { afterSeq: after, limit: 97 });
      seen.push(...page.events.map(({ seq, ...e }) => ({ seq, e })));
      after = page.nextSeq;
    }
    expect(seen).toEqual(lines.map((l, seq) => ({ seq, e: JSON.parse(l) })));
    // A task whose lines straddle the first block boundary, and type filters over all blocks.
    const straddling = store.listTasks(id).find((t) => {
      const span = store.events(id, { task: t.id }).events.map((e) => e.seq);
      return span[0] < 256 && span[span.length - 1] >= 256;
    })!;
    expect(store.events(id, { task: straddling.id }).events.map((e) => e.event_type)).toEqual([
      'a2a_task_received',
      'task_start',
      'inference',
      'tool_call',
      'tool_result',
      'inference',
      'task_end',
    ]);
    expect(store.events(id, { types: ['task_end'], limit: 1000 }).events).toHaveLength(90);
    expect(store.events(id, { types: ['session_end'] }).events.map((e) => e.seq)).toEqual([lines.length - 1]);
    expect((await store.search('Summarise report number 89')).map((h) => h.seq)).toEqual([lines.length - 8]);
  });

  it('answers the same pages read asynchronously, and the same error once the file is gone', async () => {
    const { id, path } = writeSession({ tasks: 40, turns: 2 });
    const store = open();
    store.ingestFile(path);
    const task = store.listTasks(id)[7];
    const queries = [
      {},
      { limit: 10 },
      { afterSeq: 9, limit: 100 },
      { task: task.id },
      { task: task.id, types: ['inference'], limit: 1 },
      { types: ['task_end'], limit: 1000 },
      { types: ['session_start'] },
      { task: 'tsk_unknown' },
    ];
    for (const q of queries) expect(await store.eventsAsync(id, q)).toEqual(store.events(id, q));
    expect(await store.eventsAsync('no-such-session')).toEqual({ events: [], nextSeq: null });
    rmSync(path);
    expect(() => store.events(id)).toThrow(/run a sync to re-index/);
    await expect(store.eventsAsync(id)).rejects.toThrow(/cannot read .*ENOENT; run a sync to re-index/);
  });

  it('filters the events of one task when tasks interleave', () => {
    const id = newSessionId();
    const path = join(records, id, 'trace.jsonl');
    const w = createTraceWriter(path, id);
    const a = [...syntheticSessionEvents({ tasks: 1, turns: 3, end: false })];
    const b = [...syntheticSessionEvents({ tasks: 1, turns: 2, end: false })].slice(1);
    w.append(a[0]);
    for (let i = 1; i < Math.max(a.length, b.length); i++) [a[i], b[i - 1]].forEach((e) => e && w.append(e));
    w.dispose();
    const store = open();
    store.ingestFile(path);
    const [ta, tb] = store.listTasks(id);
    const ofA = store.events(id, { task: ta.id }).events;
    expect(ofA).toHaveLength(a.length - 1);
    expect(ofA.every((e) => e.task_id === ta.id)).toBe(true);
    expect(store.events(id, { task: tb.id, types: ['inference'] }).events.map((e) => e.task_id)).toEqual([
      tb.id,
      tb.id,
    ]);
    const paged = store.events(id, { task: ta.id, limit: 4 });
    expect(store.events(id, { task: ta.id, afterSeq: paged.nextSeq!, limit: 100 }).events).toHaveLength(
      a.length - 1 - 4,
    );
  });

  it('searches task text, answers and failures, and filters sessions', async () => {
    const a = writeSession({ tasks: 2, answerWord: 'pelican', capsule: 'alpha' });
    const b = writeSession({ tasks: 1, answerWord: 'walrus', capsule: 'beta' });
    const store = open();
    store.syncRecords(records);
    const hits = await store.search('pelican');
    expect(hits.length).toBe(4); // two inference texts + two answers
    expect(new Set(hits.map((h) => h.sessionId))).toEqual(new Set([a.id]));
    expect(hits[0].text).toContain('pelican');
    expect(await store.search('"; DROP TABLE events; --')).toEqual([]);
    // A word of a task's own text (a2a_task_received) finds that line and its task.
    const asked = await store.search('weekly review');
    expect(asked.map((h) => h.type)).toEqual(['a2a_task_received', 'a2a_task_received', 'a2a_task_received']);
    expect(asked.map((h) => h.taskId).every((t) => !!t)).toBe(true);
    expect(await store.search('pelican', { limit: 3 })).toHaveLength(3);
    expect(store.listSessions({ search: 'walrus' }).map((s) => s.id)).toEqual([b.id]);
    expect(store.listSessions({ capsule: 'alpha' }).map((s) => s.id)).toEqual([a.id]);
    expect(store.listSessions().map((s) => s.id)).toEqual([b.id, a.id]);
    expect(store.listSessions({ since: Date.now() + 60_000 })).toEqual([]);
    expect(store.listSessions({ status: 'ended', limit: 1 }).map((s) => s.id)).toEqual([b.id]);
  });

  it('finds rare event types without walking the whole session, and search spans many text runs', async () => {
    const id = newSessionId();
    const path = join(records, id, 'trace.jsonl');
    const w = createTraceWriter(path, id);
    const events = [...syntheticSessionEvents({ tasks: 40, answerWord: 'osprey' })];
    // A failure and a custom event in the middle of the session, then everything else.
    events.forEach((e, i) => {
      w.append(e);
      if (i === 100)
        w.append({ event_type: 'task_failed', task_id: e.task_id, cause: 'tool', message: 'disk full on kestrel' });
      if (i === 200) w.append({ event_type: 'a2a_send', task_id: e.task_id, peer: 'worker' });
    });
    w.dispose();
    const store = open();
    store.ingestFile(path);
    const failed = store.events(id, { types: ['task_failed'] }).events;
    expect(failed.map((e) => [e.event_type, e.seq])).toEqual([['task_failed', 101]]);
    expect(store.events(id, { types: ['a2a_send', 'task_failed'] }).events.map((e) => e.seq)).toEqual([101, 202]);
    expect(store.events(id, { types: ['a2a_send', 'task_failed'], afterSeq: 101 }).events.map((e) => e.seq)).toEqual([
      202,
    ]);
    expect(store.events(id, { types: ['session_end'] }).events.map((e) => e.event_type)).toEqual(['session_end']);
    expect(store.events(id, { types: ['task_end'], limit: 5 }).events).toHaveLength(5);
    // 40 answers and 40 final inference texts say osprey, spread over several full-text runs.
    const hits = await store.search('osprey', { limit: 1000 });
    expect(hits).toHaveLength(80);
    expect(new Set(hits.map((h) => h.seq)).size).toBe(80);
    expect(hits.map((h) => h.seq)).toEqual([...hits.map((h) => h.seq)].sort((a, b) => b - a));
    expect((await store.search('kestrel')).map((h) => [h.type, h.text])).toEqual([
      ['task_failed', 'tool: disk full on kestrel'],
    ]);
    expect(store.listSessions({ search: 'kestrel' }).map((s) => s.id)).toEqual([id]);
  });

  it('rebuilds everything after the database is deleted', async () => {
    const { id } = writeSession({ tasks: 4, answerWord: 'heron' });
    const dbPath = join(dir, 'studio.db');
    const first = open(dbPath);
    first.syncRecords(records);
    const before = first.getSession(id);
    first.dispose();
    for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) rmSync(f, { force: true });
    const second = open(dbPath);
    expect(second.listSessions()).toEqual([]);
    expect(second.syncRecords(records).added).toBe(before!.events);
    expect(second.getSession(id)).toEqual(before);
    expect((await second.search('heron')).length).toBe(8);
  });

  it('drops sessions whose records folder was deleted', async () => {
    const keep = writeSession({ tasks: 1 });
    const drop = writeSession({ tasks: 2, answerWord: 'ibis' });
    const store = open();
    store.syncRecords(records);
    rmSync(join(records, drop.id), { recursive: true });
    store.syncRecords(records);
    expect(store.listSessions().map((s) => s.id)).toEqual([keep.id]);
    expect(await store.search('ibis')).toEqual([]);
    expect(store.events(drop.id).events).toEqual([]);
  });

  it('recreates a corrupt database file and reindexes', () => {
    const { id } = writeSession({ tasks: 1 });
    const dbPath = join(dir, 'studio.db');
    writeFileSync(dbPath, 'this is not a sqlite database'.repeat(200));
    const store = open(dbPath);
    const r = store.syncRecords(records);
    expect(r.recovered).toBe(true);
    expect(store.getSession(id)!.tasks).toBe(1);
  });

  it('skips and reports a torn last line, then picks it up once complete', () => {
    const { id, path } = writeSession({ tasks: 1, end: false });
    const tail = JSON.stringify({
      ts: new Date().toISOString(),
      event_type: 'session_end',
      session_id: id,
      reason: 'stopped',
      tasks: 1,
      tokens_in: 0,
      tokens_out: 0,
    });
    appendFileSync(path, tail.slice(0, 25));
    const store = open();
    const r = store.ingestFile(path);
    expect(r.torn).toEqual({ offset: expect.any(Number), bytes: 25 });
    expect(store.getSession(id)).toMatchObject({ status: 'running', tornBytes: 25 });
    appendFileSync(path, tail.slice(25) + '\n{not json}\n');
    const again = store.ingestFile(path);
    expect(again).toMatchObject({ added: 1, skipped: { bad: 1, deep: 0, long: 0, foreign: 0 } });
    expect(again.torn).toBeUndefined();
    expect(store.getSession(id)).toMatchObject({ status: 'ended', tornBytes: 0, badLines: 1 });
  });

  it('a writer reopening a file with a torn last line: the index reads every line written after it', () => {
    const { id, path } = writeSession({ tasks: 1, end: false });
    appendFileSync(path, '{"ts":"2026-01-01T00:00:00.000Z","event_type":"task_st');
    const store = open();
    expect(store.ingestFile(path).torn).toBeDefined();
    const before = store.getSession(id)!.events;
    // A resumed session appends to the same file.
    const w = createTraceWriter(path, id);
    w.append({ event_type: 'session_start', capsule: 'again' });
    w.append({ event_type: 'session_end', reason: 'stopped' });
    w.dispose();
    const again = store.ingestFile(path);
    expect(again).toMatchObject({ added: 2, skipped: { bad: 1, deep: 0, long: 0, foreign: 0 } });
    expect(again.torn).toBeUndefined();
    expect(store.getSession(id)).toMatchObject({ status: 'ended', events: before + 2, tornBytes: 0 });
  });

  it('answers an unchanged file without a write transaction, and still sees a same-size replacement', () => {
    const { id, path } = writeSession({ tasks: 2 });
    const store = open();
    store.ingestFile(path);
    // Another process holds the write lock: an up-to-date file needs none, so no wait, no error.
    const other = new Database(join(dir, 'studio.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(store.ingestFile(path)).toMatchObject({ sessionId: id, added: 0, rebuilt: false });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // Same size, but the indexed end no longer follows a newline: replaced, so it is re-read.
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, `{"x":1}\n${text.slice(0, -9)} `);
    expect(store.ingestFile(path).rebuilt).toBe(true);
  });

  it('re-indexes a trace file that was replaced by a shorter one', () => {
    const { id, path } = writeSession({ tasks: 3 });
    const store = open();
    store.ingestFile(path);
    rmSync(path);
    const w = createTraceWriter(path, id);
    for (const e of syntheticSessionEvents({ tasks: 1 })) w.append(e);
    w.dispose();
    const r = store.ingestFile(path);
    expect(r.rebuilt).toBe(true);
    expect(store.getSession(id)!.tasks).toBe(1);
    expect(store.listTasks(id)).toHaveLength(1);
    // Replaced again by a longer file: the indexed offset no longer starts a line.
    rmSync(path);
    const w2 = createTraceWriter(path, id);
    w2.append({ event_type: 'note', text: 'x'.repeat(37) });
    for (const e of syntheticSessionEvents({ tasks: 4 })) w2.append(e);
    w2.dispose();
    expect(store.ingestFile(path).rebuilt).toBe(true);
    expect(store.listTasks(id)).toHaveLength(4);
    expect(store.events(id, { limit: 1 }).events[0].event_type).toBe('note');
  });

  it('indexes concurrent sessions written at the same time, from two store connections', () => {
    const ids = [newSessionId(), newSessionId(), newSessionId()];
    const writers = ids.map((id) => createTraceWriter(join(records, id, 'trace.jsonl'), id));
    const streams = ids.map((_, i) => [...syntheticSessionEvents({ tasks: 5 + i })]);
    const dbPath = join(dir, 'studio.db');
    const a = open(dbPath);
    const b = open(dbPath);
    for (let step = 0; streams.some((s) => step < s.length); step++) {
      streams.forEach((s, i) => s[step] && writers[i].append(s[step]));
      if (step % 7 === 0) {
        writers.forEach((w) => w.flushSync());
        (step % 14 ? a : b).syncRecords(records);
      }
    }
    writers.forEach((w) => w.dispose());
    a.syncRecords(records);
    b.syncRecords(records);
    ids.forEach((id, i) => {
      expect(b.getSession(id)).toMatchObject({ events: streams[i].length, tasks: 5 + i, status: 'ended' });
      expect(b.listTasks(id).every((t) => t.state === 'TASK_STATE_COMPLETED')).toBe(true);
    });
    expect(a.listSessions().map((s) => s.id)).toEqual([...ids].reverse());
  });

  it('works in memory and finds child sessions under their parent', () => {
    const parent = writeSession({ tasks: 1 });
    const childId = newSessionId();
    const w = createTraceWriter(join(records, parent.id, 'children', 'my-worker-0a1b2c', 'trace.jsonl'), childId);
    for (const e of syntheticSessionEvents({ tasks: 1, capsule: 'child' })) w.append(e);
    w.dispose();
    const store = open(':memory:');
    expect(store.syncRecords(records).files).toBe(2);
    expect(store.getSession(childId)!.capsule).toBe('child');
    expect(existsSync(join(dir, ':memory:'))).toBe(false);
  });
});
