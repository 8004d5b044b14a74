import { main, report } from './dispatch';

// The `capsule` command (alias `mur`); bin/capsule.js loads this file through tsx.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => process.exit(report(err)),
);
