import { AsyncLocalStorage } from 'node:async_hooks';
import { maskOpenSecrets } from '../trace';

// The last resort of a host process (the CLI's run/serve/studio, the Electron main process): an
// error nobody caught, or a promise rejection nobody handled, must not end the process silently
// and take every session with it. The work of a task that can throw out of band (a provider's
// SDK, a tool, a child process) runs inside the task's scope; the async context carries it into
// every callback and promise that work starts, so the handler knows whose work failed. That task
// fails (with a runtime_error line in its trace); the process keeps serving the rest.
//
// While any scope is open, Node calls a hook for every promise and async resource of the whole
// process (the door's own requests included). So the context is switched on only while a task
// that entered its scope is undecided, and off again once the last of them is: an error after
// that belongs to no task anyway (a decided task's scope refuses it).

/** The task a piece of work belongs to, as the last-resort handler sees it. */
export interface TaskScope {
  readonly sessionId: string;
  readonly taskId: string;
  /** The task's outcome is decided: errors from its leftover work are not its own. */
  readonly settled: boolean;
  /** Fails the task because of err and traces it; false when the task had already ended. */
  fail(err: unknown, origin: string): boolean;
}

const scopes = new AsyncLocalStorage<TaskScope>();
/** The undecided scopes that were entered; the async context is on while there is one. */
const open = new Set<TaskScope>();

/** Runs fn (and everything it schedules) as the work of one task, until leaveTaskScope(scope). */
export function runInTaskScope<T>(scope: TaskScope, fn: () => T): T {
  if (scope.settled) return fn();
  open.add(scope);
  return scopes.run(scope, fn);
}

/** The task's outcome is decided: its scope no longer keeps the async context on. */
export function leaveTaskScope(scope: TaskScope): void {
  if (open.delete(scope) && open.size === 0) scopes.disable();
}

export interface LastResortOptions {
  /** Where the one-line report goes (default: stderr). */
  log?: (line: string) => void;
  /** Adds the stack to the report (the CLI sets it from CAPSULE_DEBUG). */
  debug?: boolean;
}

const MAX_MESSAGE = 500;

function describe(err: unknown, debug: boolean): string {
  const e = err as Error | undefined;
  // No session owns this error, so every open session's secrets are masked out of it.
  const text = maskOpenSecrets(debug && e?.stack ? e.stack : (e?.message ?? String(err)));
  return text.length > MAX_MESSAGE && !debug ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/**
 * Handles one unexpected error: fails the task it belongs to, if any, and reports it. Exported
 * for tests; installLastResort wires it to the process events.
 */
export function handleUnexpected(err: unknown, origin: string, opts: LastResortOptions = {}): void {
  const log = opts.log ?? toStderr;
  const scope = scopes.getStore();
  let failed = false;
  try {
    failed = scope?.fail(err, origin) ?? false;
  } catch {}
  // The message of an attributed error goes to the task's trace, where secrets are masked; the
  // terminal only names the task, so a secret inside an error message never reaches stderr.
  if (scope && failed)
    log(
      `capsule: unexpected error (${origin}) in task ${scope.taskId} of session ${scope.sessionId}: the task failed, the process keeps running (details in its trace)`,
    );
  else log(`capsule: unexpected error (${origin}), the process keeps running: ${describe(err, opts.debug ?? false)}`);
}

/** A report for the terminal; once the terminal is gone (a closed pipe) there is nobody to tell. */
function toStderr(line: string): void {
  if (process.stderr.destroyed || !process.stderr.writable) return;
  process.stderr.write(`${line}\n`);
}

/**
 * A standard stream that fails (the reader of a pipe exited, `capsule serve | head`, or the
 * terminal closed) drops what is written to it from then on. Unhandled, its error would reach the
 * last-resort handler, whose report to that same stderr would fail again: an endless loop at full
 * CPU that never let the process end.
 */
function dropOnError(this: NodeJS.WriteStream): void {
  this.destroy();
}

let installed: { onRejection: (r: unknown) => void; onException: (e: Error) => void } | undefined;

/** Installs the handlers once per process; returns a function that removes them (tests). */
export function installLastResort(opts: LastResortOptions = {}): () => void {
  if (installed) return () => {};
  const own = {
    onRejection: (reason: unknown) => handleUnexpected(reason, 'unhandled rejection', opts),
    onException: (err: Error) => handleUnexpected(err, 'uncaught exception', opts),
  };
  installed = own;
  process.on('unhandledRejection', own.onRejection);
  process.on('uncaughtException', own.onException);
  process.stdout.on('error', dropOnError);
  process.stderr.on('error', dropOnError);
  return () => {
    if (installed !== own) return;
    process.off('unhandledRejection', own.onRejection);
    process.off('uncaughtException', own.onException);
    process.stdout.off('error', dropOnError);
    process.stderr.off('error', dropOnError);
    installed = undefined;
  };
}
