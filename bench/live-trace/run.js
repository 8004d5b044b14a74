'use strict';
// bench/run.js entry: runs live.ts through tsx in its own process and returns its result.
const { execFile } = require('node:child_process');
const { join } = require('node:path');

module.exports = ({ smoke, results, root }) =>
  new Promise((ok, fail) =>
    execFile(process.execPath, ['-r', 'tsx/cjs', join(__dirname, 'live.ts'), '--out', join(results, 'live-trace.json'), ...(smoke ? ['--smoke'] : [])], { cwd: root, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return fail(new Error(`live-trace failed: ${stderr || err.message}`));
      const r = JSON.parse(stdout.trim().split('\n').pop());
      ok({ ...r, summary: `live-trace: ${r.delivered}/${r.sent} events delivered (${r.lost} lost, ${r.index_gaps} gaps) in ${r.batches} batches (p50 ${r.batch_size.p50}, max ${r.batch_size.max})` });
    }),
  );
