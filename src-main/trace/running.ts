import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { atomicWriteSync } from '../fs';

// Running-session files: `<home>/run/<session id>.json`, one per live session on this machine,
// written at start and removed at the end. A crashed session leaves its file behind, so readers
// check the pid and prune files whose process is gone. listRunningSessions reads them on the
// calling thread (the CLI's commands); listRunningSessionsAsync off it (a session's delegation).

const runningFileSchema = z.object({
  session_id: z.string().regex(/^ses_[0-9a-f]+$/),
  name: z.string(),
  version: z.string().default(''),
  url: z.string(),
  pid: z.number().int().positive(),
  manifest_path: z.string().default(''),
  workdir: z.string().default(''),
  started_at: z.union([z.number(), z.string()]),
  owns_process: z.boolean().optional(),
  pid_start: z.string().optional(),
});

export type RunningFile = z.input<typeof runningFileSchema>;

/** A session running on this machine. */
export interface RunningSession {
  id: string;
  name: string;
  version: string;
  url: string;
  pid: number;
  manifestPath: string;
  workdir: string;
  startedAt: number;
  /** The process hosts this session alone (`capsule run`), so signalling it ends only this session. */
  ownsProcess: boolean;
  /** When the host process started, as the system counts it (absent where it cannot be read). */
  pidStart?: string;
  file: string;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process pid started, in the kernel's clock ticks since boot (Linux /proc); undefined where
 * that cannot be read. A pid is reused once its process is gone, and a running file outlives a
 * crash, a kill -9 or a reboot: only the pid and this moment together name the process that wrote it.
 */
export function processStart(pid: number): string | undefined {
  try {
    return startOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** processStart off the main thread. */
async function processStartAsync(pid: number): Promise<string | undefined> {
  try {
    return startOfStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

// "pid (comm) state ppid …": comm may hold spaces and parentheses; starttime is field 22.
const startOfStat = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];

/**
 * The process that hosts a running session is still the one that wrote its file: alive, and, when
 * the file says when it started, started then (not a newer process that was handed the same pid).
 */
export function hostAlive(s: { pid: number; pidStart?: string }): boolean {
  if (!pidAlive(s.pid)) return false;
  if (s.pidStart === undefined) return true;
  const now = processStart(s.pid);
  return now === undefined || now === s.pidStart;
}

type RunningInfo = z.output<typeof runningFileSchema>;

/** A running file's content, or undefined when it is being written or not ours (never fatal to a listing). */
function infoOf(text: string): RunningInfo | undefined {
  try {
    return runningFileSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

const pidStartOf = (info: RunningInfo) => (info.pid_start ? { pidStart: info.pid_start } : {});

function runningSessionOf(file: string, info: RunningInfo): RunningSession {
  const startedAt = typeof info.started_at === 'number' ? info.started_at : Date.parse(info.started_at) || 0;
  return {
    id: info.session_id,
    name: info.name,
    version: info.version,
    url: info.url,
    pid: info.pid,
    manifestPath: info.manifest_path,
    workdir: info.workdir,
    startedAt,
    ownsProcess: info.owns_process === true,
    ...pidStartOf(info),
    file,
  };
}

const newestFirst = (a: RunningSession, b: RunningSession) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** hostAlive off the main thread. */
async function hostAliveAsync(s: { pid: number; pidStart?: string }): Promise<boolean> {
  if (!pidAlive(s.pid)) return false;
  if (s.pidStart === undefined) return true;
  const now = await processStartAsync(s.pid);
  return now === undefined || now === s.pidStart;
}

/** Running sessions, newest first. Files of dead processes are removed unless `prune` is false. */
export function listRunningSessions(runDir: string, opts: { prune?: boolean } = {}): RunningSession[] {
  let names: string[];
  try {
    names = readdirSync(runDir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: RunningSession[] = [];
  for (const name of names) {
    const file = join(runDir, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const info = infoOf(text);
    if (!info) continue;
    if (!hostAlive({ pid: info.pid, ...pidStartOf(info) })) {
      if (opts.prune !== false) rmSync(file, { force: true });
      continue;
    }
    out.push(runningSessionOf(file, info));
  }
  return out.sort(newestFirst);
}

/** listRunningSessions off the main thread: the folder and its files are read with fs/promises. */
export async function listRunningSessionsAsync(
  runDir: string,
  opts: { prune?: boolean } = {},
): Promise<RunningSession[]> {
  let names: string[];
  try {
    names = (await readdir(runDir)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const found = await Promise.all(
    names.map(async (name): Promise<RunningSession | undefined> => {
      const file = join(runDir, name);
      const info = infoOf(await readFile(file, 'utf8').catch(() => ''));
      if (!info) return undefined;
      if (!(await hostAliveAsync({ pid: info.pid, ...pidStartOf(info) }))) {
        if (opts.prune !== false) await rm(file, { force: true }).catch(() => undefined);
        return undefined;
      }
      return runningSessionOf(file, info);
    }),
  );
  return found.filter((s): s is RunningSession => s !== undefined).sort(newestFirst);
}

/** Writes a running file atomically (readers never see half of it). */
export function writeRunningFile(runDir: string, info: RunningFile): string {
  mkdirSync(runDir, { recursive: true });
  const file = join(runDir, `${info.session_id}.json`);
  atomicWriteSync(file, JSON.stringify(info) + '\n');
  return file;
}

export function removeRunningFile(runDir: string, sessionId: string): void {
  rmSync(join(runDir, `${sessionId}.json`), { force: true });
}
