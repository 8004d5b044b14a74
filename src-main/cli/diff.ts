import { resolve } from 'node:path';
import { lineDiff } from '../../src-shared/manifest';
import type { CapsuleDiffView, VersionDiffView } from '../../src-shared/contract';
import { compareVersions } from '../versions';
import { parseCommandArgs } from './args';
import { UserError } from './errors';

// `capsule diff`: what changed between two versions of a workspace (the second one the files on
// disk unless named): capsules added, removed or changed, the permissions granted or taken back
// (an edge of the graph is a permission), and each changed manifest line by line.

export const usage = `usage: capsule diff <from> [to] [--workspace W]
  from, to         versions as capsule history lists them (4+ hex digits) or HEAD; to defaults to
                   the files on disk now (the draft)
  --workspace, -w  the workspace (default: the current folder)`;

const options = { workspace: { type: 'string', short: 'w' } } as const;

function manifestLines(c: CapsuleDiffView): string[] {
  const marks = { same: ' ', removed: '-', added: '+' } as const;
  return [
    `--- ${c.path} (${c.change})`,
    ...lineDiff(c.before ?? '', c.after ?? '').map((l) => `${marks[l.kind]} ${l.text}`),
  ];
}

export function formatVersionDiff(d: VersionDiffView): string {
  const lines = [`${d.from} → ${d.to}`];
  if (!d.capsules.length && !d.permissions.length)
    lines.push(d.formationChanged ? 'Only the layout changed (formation.yaml).' : 'No change.');
  for (const c of d.capsules) lines.push(`  ${c.change.padEnd(7)}  ${c.id}`);
  if (d.permissions.length) lines.push('Permissions:', ...d.permissions.map((p) => `  ${p}`));
  for (const c of d.capsules) lines.push('', ...manifestLines(c));
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv, options, usage);
  if (positionals.length < 1 || positionals.length > 2)
    throw new UserError(`diff takes one or two versions\n${usage}`, 2);
  const diff = await compareVersions(resolve(values.workspace ?? '.'), positionals[0], positionals[1]);
  process.stdout.write(`${formatVersionDiff(diff)}\n`);
  return 0;
}
