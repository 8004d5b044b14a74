import { resolve } from 'node:path';
import { publishVersion } from '../versions';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { printOutcome } from './test';

// `capsule publish`: makes a version the one outside callers get through the gateway, after the
// workspace's tests pass against it (exit 1 when one fails, so CI can gate on it). --override
// publishes anyway and the history says which tests were failing. Rolling back is publishing an
// earlier version.

export const usage = `usage: capsule publish [version] [--workspace W] [--override]
  version          a version from capsule history (default: the files on disk, saved as a step first);
                   an earlier one rolls back
  --workspace, -w  the workspace (default: the current folder)
  --override       publish even when tests fail (the history records which ones)`;

const options = {
  workspace: { type: 'string', short: 'w' },
  override: { type: 'boolean' },
} as const;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('publish', argv, options, usage);
  if (positionals.length > 1) throw new UserError(`publish takes at most one version\n${usage}`, 2);
  const out = await publishVersion(resolve(values.workspace ?? '.'), {
    ...(positionals[0] ? { version: positionals[0] } : {}),
    ...(values.override ? { override: true } : {}),
  });
  for (const r of out.results) printOutcome(r);
  const failed = out.results.filter((r) => !r.passed).length;
  if (!out.results.length)
    process.stdout.write('no tests in the workspace (tests/*.yaml): nothing checked this version\n');
  if (!out.published) {
    process.stdout.write(
      `not published: ${failed} failing test${failed === 1 ? '' : 's'}; fix them, or publish anyway with --override (the history records it)\n`,
    );
    return 1;
  }
  process.stdout.write(
    `published ${out.published.short}${failed ? ` with ${failed} failing test${failed === 1 ? '' : 's'} overridden` : ''}${out.step ? ` (step ${out.step.short})` : ''}\n`,
  );
  return 0;
}
