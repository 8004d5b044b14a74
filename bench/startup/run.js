'use strict';
// bench/run.js entry: runs startup.js in its own process (it starts npm start and a browser) and returns its result.
const { execFile } = require('node:child_process');
const { join } = require('node:path');

module.exports = ({ smoke, results, root }) =>
  new Promise((ok, fail) =>
    execFile(
      process.execPath,
      [join(__dirname, 'startup.js'), '--out', join(results, 'startup.json'), ...(smoke ? ['--smoke'] : [])],
      { cwd: root, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) return fail(new Error(`startup failed: ${stderr || err.message}`));
        const r = JSON.parse(stdout.trim().split('\n').pop());
        ok({
          ...r,
          summary: `startup: npm start to an interactive canvas p50 ${r.total_ms.p50} ms over ${r.runs} run(s) (address printed at ${r.address_ms_p50} ms; target 3000), first screen ${Math.round(r.first_screen_js_bytes / 1000)} kB of JavaScript (target 500)${r.built_in_run ? '; a build ran' : ''}`,
        });
      },
    ),
  );
