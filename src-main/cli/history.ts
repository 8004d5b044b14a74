import { resolve } from 'node:path';
import { listSteps, readPublished, saveStep } from '../versions';
import { intOption, parseCommandArgs } from './args';
import { UserError } from './errors';

// `capsule history`: the steps of a workspace's history, newest first (Studio saves, publishes,
// restores and the user's own commits), each with who, when, what, and which capsules it changed.

export const usage = `usage: capsule history [--workspace W] [--limit N] [--start]
  --workspace, -w  the workspace (default: the current folder)
  --limit, -n      at most N steps (default 50)
  --start          start the history of a workspace that has none: a git repository in the
                   workspace holding its formation, manifests and tests as the first step`;

const options = {
  workspace: { type: 'string', short: 'w' },
  limit: { type: 'string', short: 'n' },
  start: { type: 'boolean' },
} as const;

const when = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('history', argv, options, usage);
  if (positionals.length) throw new UserError(`history takes no arguments\n${usage}`, 2);
  const dir = resolve(values.workspace ?? '.');
  const limit = intOption('limit', values.limit, 10_000) ?? 50;
  if (values.start) {
    const { step, created } = await saveStep(dir, 'Start the history');
    process.stdout.write(
      step
        ? `${created ? 'Created a repository in the workspace; ' : ''}first step ${step.short}\n`
        : 'Nothing to save: the history is up to date\n',
    );
  }
  const steps = await listSteps(dir, limit);
  if (!steps.length)
    throw new UserError(
      `${dir} has no history yet: it starts with the first save in the Studio, or run capsule history --start`,
    );
  const published = await readPublished(dir);
  for (const s of steps) {
    const mark = published?.version === s.version ? '  (published)' : '';
    const capsules = s.capsules.length ? `  [${s.capsules.join(', ')}]` : '';
    process.stdout.write(`${s.short}  ${when(s.time)}  ${s.author}  ${s.message.split('\n')[0]}${capsules}${mark}\n`);
  }
  if (published && !steps.some((s) => s.version === published.version))
    process.stdout.write(`published: ${published.short} (older than these steps)\n`);
  return 0;
}
