import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { syncCallsOf, type SyncCall } from '../../sync-fs.fixture';
import { listRunningSessions, listRunningSessionsAsync, processStart, writeRunningFile } from '../../trace';
import { runningFormation } from './formation-running';

// A session without a formation finds its peers among the sessions running on this machine. A
// delegation by name or by URL reads their running files off the main thread, and finds what the
// CLI's listing (on the thread) finds.

const watch = vi.hoisted(() => ({ on: false, calls: [] as SyncCall[] }));
vi.mock('node:fs', async (original) => (await import('../../sync-fs.fixture')).watchedFs(await original(), watch));

let runDir: string;
const session = (id: string, name: string, port: number, pid = process.pid) => ({
  session_id: id,
  name,
  version: '1.0.0',
  url: `http://127.0.0.1:${port}`,
  pid,
  workdir: `/records/${id}`,
  started_at: 1,
  ...(pid === process.pid ? { pid_start: processStart(pid) } : {}),
});
beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'capsule-running-'));
  writeRunningFile(runDir, session('ses_01', 'worker', 4001));
  writeRunningFile(runDir, session('ses_02', 'worker', 4002));
  writeRunningFile(runDir, session('ses_03', 'critic', 4003));
  // A session whose process is gone, and a file half written.
  writeRunningFile(runDir, session('ses_04', 'ghost', 4004, 2 ** 22 - 3));
  writeFileSync(join(runDir, 'ses_05.json'), '{"session_id": "ses_05", "na');
});
afterEach(() => rmSync(runDir, { recursive: true, force: true }));

it('resolves a name and a URL off the main thread, the newest session of a name winning', async () => {
  const formation = runningFormation(runDir);
  let byName: unknown;
  let byUrl: unknown;
  let ghost: unknown;
  const calls = await syncCallsOf(watch, async () => {
    byName = await formation.resolve('worker');
    byUrl = await formation.byUrl!('http://localhost:4003/');
    ghost = await formation.resolve('ghost');
  });
  expect(calls).toEqual([]);
  expect(byName).toEqual({
    kind: 'door',
    url: 'http://127.0.0.1:4002',
    capsule: 'worker',
    version: '1.0.0',
    sessionId: 'ses_02',
    workdir: '/records/ses_02',
  });
  expect(byUrl).toMatchObject({ capsule: 'critic', sessionId: 'ses_03' });
  expect(ghost).toBeUndefined();
  // The formation never prunes another process's files.
  expect(existsSync(join(runDir, 'ses_04.json'))).toBe(true);
});

it('lists what the listing on the thread lists, and prunes alike', async () => {
  const kept = await listRunningSessionsAsync(runDir, { prune: false });
  expect(kept).toEqual(listRunningSessions(runDir, { prune: false }));
  expect(kept.map((s) => s.id)).toEqual(['ses_03', 'ses_02', 'ses_01']);
  await listRunningSessionsAsync(runDir);
  expect(existsSync(join(runDir, 'ses_04.json'))).toBe(false);
});
