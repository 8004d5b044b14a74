import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { report } from './dispatch';
import * as history from './history';
import * as diffCommand from './diff';
import * as restore from './restore';

const modules: Record<string, { main(argv: string[]): Promise<number> }> = { history, diff: diffCommand, restore };

// `capsule history`, `capsule diff` and `capsule restore` on a copy of the example workspace.

const EXAMPLE = resolve(__dirname, '../../resources/example-workspace');
let ws: string;

async function capsule(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (out.push(String(chunk)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (err.push(String(chunk)), true));
  try {
    const code = await modules[args[0]].main(args.slice(1)).catch((error: unknown) => report(error));
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

beforeEach(() => {
  ws = join(mkdtempSync(join(tmpdir(), 'capsule-cli-history-')), 'ws');
  cpSync(EXAMPLE, ws, { recursive: true });
});
afterEach(() => rmSync(join(ws, '..'), { recursive: true, force: true }));

describe('capsule history, diff, restore', () => {
  it('starts a history, lists steps, diffs with permissions named, and restores as a new step', async () => {
    const none = await capsule('history', '-w', ws);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/has no history yet.*capsule history --start/);

    const started = await capsule('history', '-w', ws, '--start');
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/Created a repository in the workspace; first step [0-9a-f]{7}/);
    const first = /first step ([0-9a-f]{7})/.exec(started.stdout)![1];

    const file = join(ws, 'capsules/coordinator.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/\n\s*- "?localhost:47312"?/, ''));
    const diff = await capsule('diff', first, '-w', ws);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain(`${first} → draft`);
    expect(diff.stdout).toMatch(/changed\s+coordinator/);
    expect(diff.stdout).toContain('coordinator may no longer call writer at localhost:47312');
    expect(diff.stdout).toMatch(/^- .*localhost:47312/m);

    const restored = await capsule('restore', first, '-w', ws);
    expect(restored.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
    const history = await capsule('history', '-w', ws);
    expect(history.stdout.trim().split('\n')).toHaveLength(1); // the draft was never saved: restoring it changed nothing
    expect(history.stdout).toContain('Start the history');
  });

  it('refuses bad versions and arguments with usage exit codes', async () => {
    await capsule('history', '-w', ws, '--start');
    expect((await capsule('diff', '-w', ws)).code).toBe(2);
    const bad = await capsule('restore', 'zzz', '-w', ws);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not a version');
  });
});
