'use strict';
// bench/run.js entry: runs open.ts through tsx in its own process and returns its result.
const { execFile } = require('node:child_process');
const { join } = require('node:path');

module.exports = ({ smoke, results, root }) =>
  new Promise((ok, fail) =>
    execFile(process.execPath, ['-r', 'tsx/cjs', join(__dirname, 'open.ts'), '--out', join(results, 'trace-open.json'), ...(smoke ? ['--smoke'] : [])], { cwd: root, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return fail(new Error(`trace-open failed: ${stderr || err.message}`));
      const r = JSON.parse(stdout.trim().split('\n').pop());
      ok({ ...r, summary: `trace-open: ${r.events} events, opened (session + first page) in ${r.open_total_ms} ms (target 1000), deep page ${r.deep_page_ms} ms, ingest ${r.ingest_events_per_s} events/s` });
    }),
  );
