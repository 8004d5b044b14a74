import { installLastResort } from '../runtime';
import { flushTelemetry } from '../telemetry/shared';
import { main, report } from './dispatch';

// The `capsule` command (alias `mur`); bin/capsule.js loads this file through tsx. The commands
// that host sessions (run, serve, studio --web) keep running past an error nobody caught: the task
// it belongs to fails and the error is reported on stderr (see runtime/last-resort.ts). The short
// commands keep Node's default: an error nobody caught ends them with a stack and exit code 1.
// Spans still queued for OpenTelemetry export go out before the process exits (at most 5 s); the
// shared module is imported directly so a command that exports nothing does not load the SDK.
const HOSTS = new Set(['run', 'serve', 'studio']);
const argv = process.argv.slice(2);
const exit = (code: number) => void flushTelemetry().finally(() => process.exit(code));
if (HOSTS.has(argv[0])) installLastResort({ debug: Boolean(process.env.CAPSULE_DEBUG) });
else endWhenReaderLeaves(exit);
main(argv).then(exit, (err) => exit(report(err)));

/**
 * A short command whose reader went away (`capsule watch @1 | head -3`, `capsule trace show
 * --events | less` quit early) ends quietly, as a pipe's writer does, instead of dying of an
 * unhandled EPIPE with a stack trace (and, for watch, instead of following on for nobody).
 */
function endWhenReaderLeaves(end: (code: number) => void): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      stream.destroy();
      end(0);
    });
  }
}
