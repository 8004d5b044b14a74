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
if (HOSTS.has(argv[0])) installLastResort({ debug: Boolean(process.env.CAPSULE_DEBUG) });
const exit = (code: number) => void flushTelemetry().finally(() => process.exit(code));
main(argv).then(exit, (err) => exit(report(err)));
