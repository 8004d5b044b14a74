import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { RecordsLayout } from './api';

// Where records and running-session files live: $CAPSULE_HOME (default ~/.capsule)/records and /run.

export function recordsLayout(env: Record<string, string | undefined> = process.env): RecordsLayout {
  const home = env.CAPSULE_HOME || join(homedir(), '.capsule');
  return { home, records: join(home, 'records'), running: join(home, 'run') };
}

/** What `capsule ps` and session addresses (@1) read about a running session. */
export interface RunningRecord {
  session_id: string;
  name: string;
  version: string;
  url: string;
  pid: number;
  manifest_path: string;
  workdir: string;
  started_at: string;
  parent_session_id?: string;
  /** True when the process hosts this session alone (`capsule run`): `capsule stop` may signal it. */
  owns_process?: boolean;
  /** When the host process started (Linux): a later process given the same pid is not the host. */
  pid_start?: string;
}

export function writeRunningRecord(dir: string, record: RunningRecord): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${record.session_id}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  return file;
}

export function removeRunningRecord(file: string): void {
  rmSync(file, { force: true });
}
