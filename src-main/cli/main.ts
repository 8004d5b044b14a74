import { installLastResort } from '../runtime';
import { main, report } from './dispatch';

// The `capsule` command (alias `mur`); bin/capsule.js loads this file through tsx. Every command
// that hosts sessions (run, serve, studio --web) keeps running past an error nobody caught: the
// task it belongs to fails and the error is reported on stderr (see runtime/last-resort.ts).
installLastResort({ debug: Boolean(process.env.CAPSULE_DEBUG) });
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => process.exit(report(err)),
);
