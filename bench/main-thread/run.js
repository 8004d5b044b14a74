'use strict';
// bench/run.js entry: runs loop.ts through tsx in its own process and returns its result.
const { execFile } = require('node:child_process');
const { join } = require('node:path');

module.exports = ({ smoke, results, root }) =>
  new Promise((ok, fail) =>
    execFile(process.execPath, ['-r', 'tsx/cjs', join(__dirname, 'loop.ts'), '--out', join(results, 'main-thread.json'), ...(smoke ? ['--smoke'] : [])], { cwd: root, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return fail(new Error(`main-thread failed: ${stderr || err.message}`));
      const r = JSON.parse(stdout.trim().split('\n').pop());
      const d = r.eventLoopDelayMs;
      const own = r.ownWorkDelayMs;
      ok({ ...r, summary: `main-thread: event-loop delay p99 ${d.p99} ms (max ${d.max}), the core's own work p99 ${own.p99} ms (max ${own.max}), load average ${r.loadAverage[0]}` });
    }),
  );
