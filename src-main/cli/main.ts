import { installLastResort } from '../runtime';
import { main, report } from './dispatch';

// The `capsule` command (alias `mur`); bin/capsule.js loads this file through tsx. The commands
// that host sessions (run, serve, studio --web) keep running past an error nobody caught: the task
// it belongs to fails and the error is reported on stderr (see runtime/last-resort.ts). The short
// commands keep Node's default: an error nobody caught ends them with a stack and exit code 1.
const HOSTS = new Set(['run', 'serve', 'studio']);
const argv = process.argv.slice(2);
if (HOSTS.has(argv[0])) installLastResort({ debug: Boolean(process.env.CAPSULE_DEBUG) });
main(argv).then(
  (code) => process.exit(code),
  (err) => process.exit(report(err)),
);
