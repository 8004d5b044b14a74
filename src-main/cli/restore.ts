import { resolve } from 'node:path';
import { restoreVersion } from '../versions';
import { parseCommandArgs } from './args';
import { UserError } from './errors';

// `capsule restore`: puts a version's formation and manifests back on disk as a new step, so
// nothing is lost (the steps after it stay in the history, and can be restored in turn).

export const usage = `usage: capsule restore <version> [--workspace W]
  version          as capsule history lists it (4+ hex digits)
  --workspace, -w  the workspace (default: the current folder)`;

const options = { workspace: { type: 'string', short: 'w' } } as const;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('restore', argv, options, usage);
  if (positionals.length !== 1) throw new UserError(`restore takes one version\n${usage}`, 2);
  const step = await restoreVersion(resolve(values.workspace ?? '.'), positionals[0]);
  process.stdout.write(`${step.short}  ${step.message}\n`);
  return 0;
}
