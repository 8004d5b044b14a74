import { formatDiff } from './expect';
import type { TestOutcome } from './run';

// JUnit XML, the report format CI systems read: one testsuite, one testcase per saved test.

const escape = (s: string) =>
  printable(s).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** XML 1.0 cannot carry most control characters, even escaped: they are dropped. */
const printable = (s: string) =>
  [...s].filter((c) => c.charCodeAt(0) >= 0x20 || c === '\n' || c === '\t' || c === '\r').join('');

export function junitReport(outcomes: readonly TestOutcome[]): string {
  const failures = outcomes.filter((o) => !o.passed && !o.error).length;
  const errors = outcomes.filter((o) => o.error).length;
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const total = outcomes.reduce((n, o) => n + o.durationMs, 0);
  const cases = outcomes.map((o) => {
    const head = `    <testcase classname="capsule" name="${escape(o.name)}" file="${escape(o.file)}" time="${secs(o.durationMs)}"`;
    if (o.error) return `${head}>\n      <error message="${escape(o.error)}"/>\n    </testcase>`;
    if (!o.passed)
      return `${head}>\n      <failure message="${o.mismatches.length} difference(s)">${escape(formatDiff(o.mismatches))}</failure>\n    </testcase>`;
    return `${head}/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${outcomes.length}" failures="${failures}" errors="${errors}" time="${secs(total)}">\n  <testsuite name="capsule test" tests="${outcomes.length}" failures="${failures}" errors="${errors}" time="${secs(total)}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}
