import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { report } from './dispatch';
import * as publish from './publish';
import * as deploy from './deploy';

// `capsule publish` gates on the workspace's tests (exit 1 on a failing one, for CI), --override
// publishes anyway and says so; `capsule deploy kubernetes` ships the published version, not the draft.

const EXAMPLE = resolve(__dirname, '../../resources/example-workspace');
let root: string;
let ws: string;
let home: string | undefined;

async function run(
  mod: { main(argv: string[]): Promise<number> },
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (out.push(String(chunk)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (err.push(String(chunk)), true));
  try {
    const code = await mod.main(args).catch((error: unknown) => report(error));
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'capsule-cli-publish-'));
  ws = join(root, 'ws');
  cpSync(EXAMPLE, ws, { recursive: true });
  mkdirSync(join(ws, 'tests'));
  cpSync(join(__dirname, '../versions/fixtures/writer-flow.yaml'), join(ws, 'tests/writer-flow.yaml'));
  home = process.env.CAPSULE_HOME;
  process.env.CAPSULE_HOME = join(root, 'home');
});
afterAll(() => {
  if (home === undefined) delete process.env.CAPSULE_HOME;
  else process.env.CAPSULE_HOME = home;
  rmSync(root, { recursive: true, force: true });
});

describe('capsule publish', () => {
  it('publishes when the tests pass, refuses with exit 1 when one fails, overrides only when told', async () => {
    const ok = await run(publish, '-w', ws);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('PASS  writer-flow');
    const v1 = /published ([0-9a-f]{7})/.exec(ok.stdout)![1];

    // The writer stops taking tasks from other capsules: the coordinator's delegation fails.
    const file = join(ws, 'capsules/writer.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('accept: true', 'accept: false'));
    const refused = await run(publish, '-w', ws);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('FAIL  writer-flow');
    expect(refused.stdout).toContain('not published: 1 failing test; fix them, or publish anyway with --override');

    // The cluster gets the published version (the writer still takes peer tasks), not the draft.
    const out = join(root, 'k8s');
    const exported = await run(deploy, 'kubernetes', '-w', ws, '--out', out, '--data', join(root, 'gw'));
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`these files hold the published version ${v1}`);
    const texts = readdirSync(out)
      .map((f) => readFileSync(join(out, f), 'utf8'))
      .join('\n');
    expect(texts).toContain('accept: true');
    expect(texts).not.toContain('accept: false');

    const forced = await run(publish, '-w', ws, '--override');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/published [0-9a-f]{7} with 1 failing test overridden/);

    const back = await run(publish, v1, '-w', ws);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain(`published ${v1}`);
  }, 90_000);
});
