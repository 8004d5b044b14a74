import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { ResidueItem } from '../tool-types';

// The session's shell commands. Every command runs in its own process group (so what it starts
// ends with it), and the registry knows which ones the session keeps in the background: detached
// ones and foreground ones a cancel moved out of the way. Those are residue until they exit, and
// the session's end kills them all.

const KILL_GRACE_MS = 2000;

export interface RunningCommand {
  readonly workId: string;
  readonly binary: string;
  readonly command: string;
  readonly startedAtMs: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  readonly exited: Promise<number | null>;
  /** Kept running without anyone awaiting it: detached, or moved there by a cancel. */
  background: boolean;
  /** Set when the session or a timeout killed it. */
  killedBy?: string;
  /** Set when the program could not be started at all (not found, not executable). */
  startError?: Error;
  residue(): ResidueItem;
}

export interface SpawnSpec {
  workId: string;
  argv: string[];
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Detached commands write stdout and stderr to this file instead of pipes. */
  logFile?: string;
}

export interface ShellRegistry {
  /** Spawns argv (no shell) in a new process group and keeps it until it exits. */
  spawn(spec: SpawnSpec): RunningCommand;
  /** Background commands still running, as residue. */
  residue(): ResidueItem[];
  running(): RunningCommand[];
  /** Kills one command's process group: SIGTERM, then SIGKILL after a grace period. */
  kill(cmd: RunningCommand, reason: string): Promise<void>;
  /** Kills every command the session still runs and waits for them to exit. */
  dispose(): Promise<void>;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}

// If the runtime's process goes away without ending its sessions, their commands go with it.
// One process listener for all sessions (a listener per session would trip the listener limit).
const live = new Set<Map<string, RunningCommand>>();
let exitHookInstalled = false;
function watchProcessExit(commands: Map<string, RunningCommand>): void {
  live.add(commands);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const set of live) for (const c of set.values()) signalGroup(c.child, 'SIGKILL');
  });
}

export function createShellRegistry(): ShellRegistry {
  const commands = new Map<string, RunningCommand>();

  const kill = async (cmd: RunningCommand, reason: string) => {
    if (!commands.has(cmd.workId)) return;
    cmd.killedBy ??= reason;
    signalGroup(cmd.child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(cmd.child, 'SIGKILL'), KILL_GRACE_MS);
    await cmd.exited;
    clearTimeout(timer);
  };

  return {
    spawn(spec) {
      watchProcessExit(commands);
      let out: number | undefined;
      if (spec.logFile) {
        mkdirSync(join(spec.logFile, '..'), { recursive: true });
        out = openSync(spec.logFile, 'a');
      }
      const child = spawn(spec.argv[0], spec.argv.slice(1), {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        shell: false,
        stdio: out === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', out, out],
      });
      if (out !== undefined) closeSync(out);
      const exited = new Promise<number | null>((resolve) => {
        child.once('error', (err) => {
          cmd.startError = err;
          resolve(null);
        });
        child.once('exit', (code) => resolve(code));
      });
      const cmd: RunningCommand = {
        workId: spec.workId,
        binary: spec.argv[0],
        command: spec.command,
        startedAtMs: Date.now(),
        child,
        exited,
        background: spec.logFile !== undefined,
        residue: () => ({
          kind: 'detached_shell',
          work_id: cmd.workId,
          binary: cmd.binary,
          command: cmd.command,
          started_at_ms: cmd.startedAtMs,
        }),
      };
      commands.set(cmd.workId, cmd);
      void exited.then(() => commands.delete(cmd.workId));
      return cmd;
    },
    residue: () => [...commands.values()].filter((c) => c.background).map((c) => c.residue()),
    running: () => [...commands.values()],
    kill,
    async dispose() {
      await Promise.all([...commands.values()].map((c) => kill(c, 'session ended')));
      live.delete(commands);
    },
  };
}
