// Starts the app as a child of `npm start` so that each Ctrl-C reaches it exactly once.
// A terminal's Ctrl-C goes to its whole foreground process group; if the child were in that
// group and we also forwarded the signal, it would arrive twice, and the app would take the
// second one as "force quit" and skip ending its sessions. So on POSIX the child gets its own
// process group and hears signals only through us: one Ctrl-C, one SIGINT.
'use strict';
const { spawn } = require('node:child_process');

function spawnForwarding(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: process.platform !== 'win32' });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => forward(signal));
  // The terminal closing hangs up only our group: the app, in its own, is asked to end cleanly.
  if (process.platform !== 'win32') process.on('SIGHUP', () => forward('SIGTERM'));
  // Should we go first (an uncaught error), the app must not outlive us unseen.
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  return child;
}

module.exports = { spawnForwarding };
