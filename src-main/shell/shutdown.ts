// The Studio's one way to end: Ctrl-C (SIGINT), SIGTERM, the window closing and the app quitting
// all come here. Every session ends cleanly (session_end written, its running record removed, its
// shell commands and harnesses ended) before the process exits. A second signal while that runs
// means "now": the shutdown is forced and says so; a shutdown that outlasts its bound forces itself.
// Quitting and closing asked again are the same request, not a force: Electron sends both.
// The terminal closing (SIGHUP) is such a request too: unhandled it would kill the process with
// no session_end, and it may arrive twice (from the shell, then from the kernel as the shell exits).

export interface ShutdownDeps {
  /** Ends everything the process runs: the shell's servers, then the core and its sessions. */
  stop(): Promise<void>;
  /** Ends the process. */
  exit(code: number): void;
  /** Where the shutdown says what it does (the terminal's stderr). */
  log(line: string): void;
  /** How many sessions are still running, for the messages. */
  running?(): number;
  /** Longest a clean shutdown may take before it is forced (default 30 s: a harness gets 10 s to stop). */
  graceMs?: number;
}

export type ShutdownState = 'running' | 'stopping' | 'done';

export interface Shutdown {
  readonly state: ShutdownState;
  /** Starts the shutdown; asked again while it runs, it answers the same promise. Resolves before exit. */
  request(why: string): Promise<void>;
  /** A signal: the first starts the shutdown, the next one forces it. */
  signal(name: string): void;
  /** Routes SIGINT, SIGTERM and SIGHUP (the terminal closed) here; returns how to undo that. */
  handleSignals(proc?: Pick<NodeJS.Process, 'on' | 'off'>): () => void;
}

export const FORCED_EXIT_CODE = 130;

export function createShutdown(deps: ShutdownDeps): Shutdown {
  const graceMs = deps.graceMs ?? 30_000;
  let state: ShutdownState = 'running';
  let pending: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const sessions = () => {
    const n = deps.running?.() ?? 0;
    return `${n} session${n === 1 ? '' : 's'}`;
  };

  const force = (why: string) => {
    if (state === 'done') return;
    state = 'done';
    clearTimeout(timer);
    deps.log(`forced (${why}): quitting now; ${sessions()} did not end cleanly`);
    deps.exit(FORCED_EXIT_CODE);
  };

  const request = (why: string): Promise<void> => {
    if (pending) return pending;
    state = 'stopping';
    deps.log(`${why}: ending ${sessions()} (press Ctrl-C again to force)`);
    timer = setTimeout(() => force(`still stopping after ${Math.round(graceMs / 1000)} s`), graceMs);
    timer.unref?.();
    pending = deps
      .stop()
      .catch((err: unknown) => deps.log(`while stopping: ${(err as Error)?.message ?? String(err)}`))
      .then(() => {
        if (state === 'done') return;
        state = 'done';
        clearTimeout(timer);
        deps.log('stopped');
        deps.exit(0);
      });
    return pending;
  };

  const signal = (name: string) => {
    if (state === 'running') void request(name);
    else force(`${name} again`);
  };

  return {
    get state() {
      return state;
    },
    request,
    signal,
    handleSignals(proc = process) {
      const onInt = () => signal('SIGINT');
      const onTerm = () => signal('SIGTERM');
      const onHup = () => void request('SIGHUP (the terminal closed)');
      proc.on('SIGINT', onInt);
      proc.on('SIGTERM', onTerm);
      proc.on('SIGHUP', onHup);
      return () => {
        proc.off('SIGINT', onInt);
        proc.off('SIGTERM', onTerm);
        proc.off('SIGHUP', onHup);
      };
    },
  };
}
