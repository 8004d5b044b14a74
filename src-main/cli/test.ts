import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatDiff, junitReport, listTests, runTest, TESTS_FOLDER, type TestOutcome } from '../regression';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { formatDuration } from './format';

// `capsule test`: runs every saved test of a workspace (tests/*.yaml) against its current
// manifests, offline. Prints PASS/FAIL per test with the diff of a failing one; exit 0 when all
// pass, 1 otherwise (or when there is no test); a JUnit XML report on request.

export const usage = `usage: capsule test [--workspace W] [--junit FILE]
  --workspace, -w  the workspace (default: the current folder); its tests are in ${TESTS_FOLDER}/*.yaml
  --junit          also write a JUnit XML report to FILE`;

const options = {
  workspace: { type: 'string', short: 'w' },
  junit: { type: 'string' },
} as const;

export function printOutcome(o: TestOutcome): void {
  const head = `${o.passed ? 'PASS' : 'FAIL'}  ${o.name}  ${formatDuration(o.durationMs)}`;
  process.stdout.write(`${head}\n`);
  if (o.error) process.stdout.write(`  error: ${o.error}\n`);
  if (o.mismatches.length) process.stdout.write(`${formatDiff(o.mismatches).replace(/^/gm, '  ')}\n`);
  if (o.records) process.stdout.write(`  records: ${o.records}\n`);
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('test', argv, options, usage);
  if (positionals.length) throw new UserError(`test takes no arguments\n${usage}`, 2);
  const workspace = resolve(values.workspace ?? '.');
  const files = listTests(workspace);
  if (!files.length)
    throw new UserError(
      `no tests in ${join(workspace, TESTS_FOLDER)} (make one with capsule rehearse --from <session> --save-test NAME)`,
    );
  const outcomes: TestOutcome[] = [];
  for (const f of files) {
    const o = await runTest(workspace, f);
    outcomes.push(o);
    printOutcome(o);
  }
  const failed = outcomes.filter((o) => !o.passed).length;
  process.stdout.write(`${outcomes.length - failed} passed, ${failed} failed\n`);
  if (values.junit) writeFileSync(resolve(values.junit), junitReport(outcomes));
  return failed ? 1 : 0;
}
