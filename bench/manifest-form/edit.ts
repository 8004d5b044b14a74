import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseDocument } from 'yaml';
import { applyEdits, readData, setAt } from '../../src-renderer/features/manifest/form/formDoc';
import { readScript } from '../../src-renderer/features/manifest/form/rehearsalScript';

// What one keystroke in the manifest form costs: the edit through the YAML document (parse, set,
// stringify) plus reading the draft back for the form (parse, toJS, the script view), against the
// floor of one bare parse + stringify of the same text, side by side in one run. Manifests with
// 10, 200 and 1,000 scripted replies (a recorded rehearsal is the big case). The ratio is the
// figure; milliseconds are printed for a person, never asserted.
// Usage: node -r tsx/cjs bench/manifest-form/edit.ts [--smoke] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const out = resolve(
  args.includes('--out') ? args[args.indexOf('--out') + 1] : join(__dirname, '..', 'results', 'manifest-form.json'),
);
const sizes = smoke ? [10, 200] : [10, 200, 1000];
const rounds = smoke ? 5 : 30;

function manifest(replies: number): string {
  const lines = [
    '# bench',
    'name: bench',
    'version: "0.1.0"',
    'inference:',
    '  model: rehearsal # offline',
    '  driver:',
    '    artifact: capsule/driver-rehearsal',
    '  rehearsal:',
    '    replies:',
  ];
  for (let i = 0; i < replies; i++) {
    lines.push(
      `      # reply ${i}`,
      `      - when: "task ${i}"`,
      '        turns:',
      '          - tool_calls:',
      '              - { name: delegate_task, arguments: { to: worker, text: "{{task}}" } }',
      `          - text: "Answer ${i}: {{tool_results}}"`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const results = sizes.map((replies) => {
  const text = manifest(replies);
  let draft = text;
  const floor: number[] = [];
  const edit: number[] = [];
  for (let r = 0; r < rounds; r++) {
    floor.push(time(() => void parseDocument(draft).toString()));
    edit.push(
      time(() => {
        draft = applyEdits(draft, setAt(['inference', 'system_prompt'], `prompt ${r}`));
        readScript(readData(draft));
      }),
    );
  }
  const f = median(floor);
  const e = median(edit);
  return {
    replies,
    bytes: text.length,
    floorMs: Number(f.toFixed(2)),
    editMs: Number(e.toFixed(2)),
    ratio: Number((e / f).toFixed(2)),
  };
});

const summary = `manifest-form: one form edit (write + read back) costs ${results.map((r) => `${r.ratio}x`).join(' / ')} a bare parse + stringify at ${results.map((r) => r.replies).join(' / ')} replies`;
const result = { bench: 'manifest-form', smoke, rounds, results, summary };
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(result)}\n`);
