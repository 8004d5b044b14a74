import { spawn, type ChildProcess } from 'node:child_process';
import type { HarnessSpec } from '../../../src-shared/manifest';

// One run of a harness CLI (inference.harness): start it, give it the prompt, read its answer
// from stdout, and stop it the way it declares when the task is canceled.
//
// Conventions (documented in process/README.md):
// - prompt: 'arg' puts the prompt where args say {prompt} (or last when no arg does);
//   prompt: 'stdin' writes it followed by a newline.
// - stdin is closed after the prompt (so CLIs that read to EOF start), unless the interrupt is
//   bytes on stdin, which needs it open.
// - A stdout line `session: <id>` names the harness session; it is not part of the answer. The
//   next run in the same context appends resume_args with {session} replaced by that id.

export const SESSION_LINE = /^session:[ \t]*(\S+)[ \t]*$/im;
const MAX_OUTPUT = 4 * 1024 * 1024;

export interface HarnessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** It did not end within grace_ms (or had no graceful interrupt) and was killed. */
  killed: boolean;
  canceled: boolean;
}

export interface HarnessResult {
  /** stdout without the session lines, trimmed. */
  answer: string;
  sessionId?: string;
  stderr: string;
  exit: HarnessExit;
}

export type InterruptName = 'sigint' | 'stdin' | 'none';

export interface HarnessRun {
  readonly pid: number | undefined;
  /** Resolves once the process has exited (also after a cancel, or with a spawn error as exit 127). */
  readonly done: Promise<HarnessResult>;
  /** Interrupts as declared, waits grace_ms, then kills. Idempotent; resolves once it has exited. */
  cancel(onInterrupt?: (name: InterruptName) => void): Promise<HarnessExit>;
  /** Kills at once (session end). */
  kill(): void;
}

export interface HarnessStart {
  prompt: string;
  resume?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  onOutput?: (text: string) => void;
}

export function interruptName(spec: HarnessSpec): InterruptName {
  return spec.interrupt === 'sigint' ? 'sigint' : spec.interrupt === 'none' ? 'none' : 'stdin';
}

/** The argument list of one run: args with {prompt} filled in, then resume_args when resuming. */
export function harnessArgs(spec: HarnessSpec, prompt: string, resume?: string): string[] {
  const hasSlot = spec.args.some((a) => a.includes('{prompt}'));
  const args = spec.prompt === 'arg' ? spec.args.map((a) => a.split('{prompt}').join(prompt)) : [...spec.args];
  if (resume && spec.resume_args) args.push(...spec.resume_args.map((a) => a.split('{session}').join(resume)));
  if (spec.prompt === 'arg' && !hasSlot) args.push(prompt);
  return args;
}

export function startHarness(spec: HarnessSpec, opts: HarnessStart): HarnessRun {
  const stdinInterrupt = typeof spec.interrupt === 'object';
  // Its own process group, so an interrupt or kill reaches what the harness itself started,
  // as Ctrl-C in a terminal would.
  const child: ChildProcess = spawn(spec.command, harnessArgs(spec, opts.prompt, opts.resume), {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env, ...spec.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  let stdout = '';
  let stderr = '';
  let killed = false;
  let canceling: Promise<HarnessExit> | undefined;
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (c: string) => {
    if (stdout.length < MAX_OUTPUT) stdout += c;
    opts.onOutput?.(c);
  });
  child.stderr!.on('data', (c: string) => {
    stderr = (stderr + c).slice(-8192);
  });
  child.stdin!.on('error', () => {});
  if (spec.prompt === 'stdin') child.stdin!.write(`${opts.prompt}\n`);
  if (!stdinInterrupt) child.stdin!.end();

  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      if (child.pid && process.platform !== 'win32') process.kill(-child.pid, sig);
      else child.kill(sig);
    } catch {
      child.kill(sig);
    }
  };
  const done = new Promise<HarnessResult>((resolve) => {
    let spawnError: Error | undefined;
    child.once('error', (err) => {
      spawnError = err;
    });
    child.once('close', (code, signal) => {
      if (spawnError) stderr = `cannot start ${spec.command}: ${spawnError.message}`;
      const sessionId = stdout
        .match(new RegExp(SESSION_LINE.source, 'gim'))
        ?.map((l) => SESSION_LINE.exec(l)![1])
        .pop();
      const answer = stdout.replace(new RegExp(`${SESSION_LINE.source}\\n?`, 'gim'), '').trim();
      resolve({
        answer,
        sessionId,
        stderr,
        exit: { code: spawnError ? 127 : code, signal, killed, canceled: canceling !== undefined },
      });
    });
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;

  return {
    pid: child.pid,
    done,
    cancel(onInterrupt) {
      canceling ??= (async () => {
        const name = interruptName(spec);
        onInterrupt?.(name);
        if (!exited()) {
          if (name === 'sigint') signalGroup('SIGINT');
          else if (name === 'stdin' && typeof spec.interrupt === 'object') child.stdin!.write(spec.interrupt.stdin);
          // No graceful interrupt: a person can always stop the task, so it is killed at once.
          const inTime =
            name !== 'none' &&
            (await Promise.race([
              done.then(() => true),
              new Promise<boolean>((r) => setTimeout(r, spec.grace_ms, false).unref()),
            ]));
          if (!inTime && !exited()) {
            killed = true;
            signalGroup('SIGKILL');
          }
        }
        return (await done).exit;
      })();
      return canceling;
    },
    kill() {
      if (!exited()) {
        killed = true;
        signalGroup('SIGKILL');
      }
    },
  };
}
