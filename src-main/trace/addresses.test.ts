import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSessionId } from '../../src-shared/ids';
import {
  AddressError,
  createTraceStore,
  createTraceWriter,
  listRunningSessions,
  resolveAddress,
  resolveRecordedSession,
  resolveRunningSession,
  writeRunningFile,
} from './index';

const ids = [
  'ses_019ed2af53da75c2aefee84ee10c34af',
  'ses_019ed2af53da75c2aefee84ee10c3e4b',
  'ses_019ed2af53da75c2aefee84ee10d34af',
];
// Newest first, as every caller passes them.
const sessions = [...ids].reverse().map((id) => ({ id }));

describe('session addresses', () => {
  it('resolves ordinals, suffixes and full ids', () => {
    expect(resolveAddress('@1', sessions).id).toBe(ids[2]);
    expect(resolveAddress('@3', sessions).id).toBe(ids[0]);
    expect(resolveAddress('3e4b', sessions).id).toBe(ids[1]);
    expect(resolveAddress('0c34af', sessions).id).toBe(ids[0]);
    expect(resolveAddress(ids[2], sessions).id).toBe(ids[2]);
  });

  it('explains what it cannot resolve', () => {
    expect(() => resolveAddress('@4', sessions)).toThrow('@4: there are only 3 sessions');
    expect(() => resolveAddress('@0', sessions)).toThrow(/ordinals start at @1/);
    expect(() => resolveAddress('@x', sessions)).toThrow(AddressError);
    expect(() => resolveAddress('4af', sessions)).toThrow(/too short/);
    expect(() => resolveAddress('ffff', sessions)).toThrow('no session matches ffff');
    expect(() => resolveAddress('@1', [])).toThrow('@1: there is no session');
    let message = '';
    try {
      resolveAddress('34af', sessions);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(`34af matches 2 sessions; use more characters:\n  ${ids[2]}\n  ${ids[0]}`);
  });
});

describe('running and recorded sessions', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'capsule-addr-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists running sessions newest first and prunes files of dead processes', () => {
    const run = join(dir, 'run');
    const base = {
      name: 'w',
      version: '1',
      url: 'http://127.0.0.1:1',
      manifest_path: 'm.yaml',
      workdir: dir,
      started_at: new Date().toISOString(),
    };
    writeRunningFile(run, { ...base, session_id: ids[0], pid: process.pid });
    writeRunningFile(run, { ...base, session_id: ids[2], pid: process.pid, name: 'newest' });
    // A pid above the kernel's pid_max never exists: a crashed session's leftover file.
    const dead = writeRunningFile(run, { ...base, session_id: ids[1], pid: 4_194_999 });
    expect(listRunningSessions(run).map((s) => s.id)).toEqual([ids[2], ids[0]]);
    expect(existsSync(dead)).toBe(false);
    expect(resolveRunningSession('@1', run).name).toBe('newest');
    expect(() => resolveRunningSession('3e4b', run)).toThrow('no running session matches 3e4b');
    expect(() => resolveRunningSession('@1', join(dir, 'none'))).toThrow(/no capsule session is running/);
  });

  it('resolves a path to a trace.jsonl, for running and recorded sessions', () => {
    const id = newSessionId();
    const trace = join(dir, 'records', id, 'trace.jsonl');
    const w = createTraceWriter(trace, id);
    w.append({
      event_type: 'session_start',
      capsule: 'w',
      version: '1',
      url: 'u',
      manifest_path: 'm',
      driver: 'd',
      model: 'm',
      pid: process.pid,
    });
    w.dispose();
    writeRunningFile(join(dir, 'run'), {
      session_id: id,
      name: 'w',
      version: '1',
      url: 'u',
      pid: process.pid,
      manifest_path: 'm',
      workdir: dir,
      started_at: Date.now(),
    });
    expect(resolveRunningSession(trace, join(dir, 'run')).id).toBe(id);
    const store = createTraceStore({ path: ':memory:' });
    try {
      expect(resolveRecordedSession(trace, store).id).toBe(id);
      expect(resolveRecordedSession(undefined, store).id).toBe(id);
      expect(resolveRecordedSession(id.slice(-5), store).capsule).toBe('w');
      expect(() => resolveRecordedSession(join(dir, 'nope', 'trace.jsonl'), store)).toThrow(/no such trace file/);
    } finally {
      store.dispose();
    }
  });
});
