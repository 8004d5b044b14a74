import { flushTelemetry } from '../telemetry/shared';
import { main, report } from './dispatch';

// The `capsule` command (alias `mur`); bin/capsule.js loads this file through tsx. Spans still
// queued for OpenTelemetry export go out before the process exits (at most 5 s); the shared
// module is imported directly so a command that exports nothing does not load the SDK.
const exit = (code: number) => void flushTelemetry().finally(() => process.exit(code));
main(process.argv.slice(2)).then(exit, (err) => exit(report(err)));
