import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// scripts/check.js runs the static checks side by side: a failing one fails the whole, with its
// output shown; no more run at once than asked; every project's tsconfig is type-checked.

type Command = string[];
type Result = { code: number; output: string };
const { CHECKS, runChecks } = createRequire(__filename)('./check.js') as {
  CHECKS: { group: string; command: Command }[];
  runChecks(
    commands: Command[],
    opts: { concurrency?: number; run?: (c: Command) => Promise<Result>; log?: (line: string) => void },
  ): Promise<boolean>;
};

/** A run that ends each command when told, counting how many run at once. */
function heldRuns() {
  const ends = new Map<string, (r: Result) => void>();
  let running = 0;
  let most = 0;
  const run = (c: Command) =>
    new Promise<Result>((done) => {
      most = Math.max(most, ++running);
      ends.set(c[0], (r) => (running--, done(r)));
    });
  return { run, ends, most: () => most };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('the static checks', () => {
  it('run at most the given number at once, and all pass when each exits 0', async () => {
    const held = heldRuns();
    const lines: string[] = [];
    const all = runChecks([['a'], ['b'], ['c']], { concurrency: 2, run: held.run, log: (l) => lines.push(l) });
    await settle();
    expect([...held.ends.keys()]).toEqual(['a', 'b']);
    held.ends.get('b')!({ code: 0, output: '' });
    await settle();
    expect([...held.ends.keys()]).toEqual(['a', 'b', 'c']);
    held.ends.get('a')!({ code: 0, output: '' });
    held.ends.get('c')!({ code: 0, output: '' });
    expect(await all).toBe(true);
    expect(held.most()).toBe(2);
    expect(lines.map((l) => l.replace(/ in [\d.]+ s$/, ''))).toEqual(['check: b: ok', 'check: a: ok', 'check: c: ok']);
  });

  it('fail as a whole when one fails, its output shown after its name, the others still run', async () => {
    const lines: string[] = [];
    const results: Record<string, Result> = {
      tsc: { code: 2, output: 'src/x.ts(1,1): error TS2304\n' },
      eslint: { code: 0, output: '' },
    };
    const ok = await runChecks([['tsc'], ['eslint']], {
      concurrency: 1,
      run: async (c) => results[c[0]],
      log: (l) => lines.push(l),
    });
    expect(ok).toBe(false);
    expect(lines.map((l) => l.replace(/ in [\d.]+ s$/, ''))).toEqual([
      'check: tsc: failed (exit 2)',
      'src/x.ts(1,1): error TS2304',
      'check: eslint: ok',
    ]);
  });

  it('type-check every project of the repository, and lint and format-check all of it', () => {
    const root = resolve(__dirname, '..');
    const projects = readdirSync(root).filter((f) => /^tsconfig\.(?!base\.).*json$/.test(f));
    const checked = CHECKS.filter((c) => c.group === 'typecheck').map((c) => c.command.at(-1));
    expect(checked.sort()).toEqual(projects.sort());
    expect(CHECKS.filter((c) => c.group === 'lint').map((c) => c.command[0])).toEqual(['eslint', 'prettier']);
  });
});
