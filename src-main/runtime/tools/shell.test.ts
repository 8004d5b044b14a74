import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeTask } from './task.fixture';
import { alive } from './formation.fixture';
import { createShellRegistry, createShellTool, splitCommand, type ShellRegistry } from './index';

// The shell tool against real processes: allow list, argv without a shell, output, timeouts, and
// what a cancel and the session's end do to running commands.

let dirs: string[] = [];
let registries: ShellRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.map((r) => r.dispose()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  registries = [];
});

function setup(allow: string[], env: Record<string, string | undefined> = process.env) {
  const dir = mkdtempSync(join(tmpdir(), 'shell-tool-'));
  dirs.push(dir);
  const registry = createShellRegistry();
  registries.push(registry);
  const tool = createShellTool({ allow, cwd: dir, workdir: () => dir, registry, env, secrets: ['s3cr3t-value'] });
  return { tool, registry, dir };
}

describe('splitCommand', () => {
  it('splits words like a shell, interpreting nothing', () => {
    expect(splitCommand(`echo 'a b' "c \\"d\\"" e\\ f $HOME *`)).toEqual({
      ok: true,
      argv: ['echo', 'a b', 'c "d"', 'e f', '$HOME', '*'],
    });
    expect(splitCommand(`echo "x | y"`)).toEqual({ ok: true, argv: ['echo', 'x | y'] });
    for (const bad of ['ls | grep x', 'echo a > f', 'a; b', 'echo $(id)', 'sleep 1 &', 'echo `id`']) {
      expect(splitCommand(bad)).toMatchObject({ ok: false, error: expect.stringContaining('shell operator') });
    }
    expect(splitCommand(`echo 'open`)).toMatchObject({ ok: false, error: expect.stringContaining('unclosed') });
  });
});

describe('shell tool', () => {
  it('runs only listed programs, by argv[0] basename', async () => {
    const { tool } = setup(['echo']);
    const t = fakeTask();
    expect(await tool.run({ command: 'cat /etc/passwd' }, t.ctx)).toEqual({
      ok: false,
      error: expect.stringMatching(/^shell_not_allowed: cat /),
    });
    expect(await tool.run({ command: ['/bin/echo', 'hi; rm -rf /'] }, t.ctx)).toEqual({
      ok: true,
      content: 'exit code: 0\n--- stdout ---\nhi; rm -rf /',
    });
    expect(await tool.run({ command: 'echo a | cat' }, t.ctx)).toMatchObject({ ok: false });
  });

  it('refuses arguments a program cannot take, with a result the model can read', async () => {
    const { tool, registry } = setup(['echo']);
    const t = fakeTask();
    for (const command of [
      ['echo', 'a\0b'],
      'echo a\0b',
      '',
      [],
      Array(2000).fill('echo'),
      'echo ' + 'x'.repeat(70_000),
    ]) {
      expect(await tool.run({ command }, t.ctx)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^invalid arguments: command/),
      });
    }
    expect(await tool.run({ command: 'echo', timeout_ms: -1 }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid arguments: timeout_ms/),
    });
    expect(await tool.run({ command: 'echo', shell: true }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid arguments: /),
    });
    expect(registry.residue()).toEqual([]);
  });

  it('reports exit codes, stderr, a missing program and a timeout', async () => {
    const { tool } = setup(['sh', 'no-such-program-here', 'sleep']);
    const t = fakeTask();
    const failed = await tool.run({ command: ['sh', '-c', 'echo out; echo err >&2; exit 3'] }, t.ctx);
    expect(failed).toEqual({ ok: false, error: 'exit code: 3\n--- stdout ---\nout\n--- stderr ---\nerr' });
    const missing = await tool.run({ command: 'no-such-program-here' }, t.ctx);
    expect(missing).toMatchObject({ ok: false, error: expect.stringContaining('could not start') });
    const slow = await tool.run({ command: 'sleep 5', timeout_ms: 100 }, t.ctx);
    expect(slow).toMatchObject({ ok: false, error: expect.stringContaining('killed: timeout after 100 ms') });
    expect(t.works.size).toBe(0);
  });

  it('caps output and keeps credentials out of the environment', async () => {
    const { tool } = setup(['sh', 'env'], {
      PATH: process.env.PATH,
      MY_API_KEY: 'k-123456',
      PLAIN: 's3cr3t-value',
      VISIBLE: 'yes',
    });
    const t = fakeTask();
    const big = await tool.run({ command: ['sh', '-c', 'head -c 100000 /dev/zero | tr "\\0" x'] }, t.ctx);
    if (!('content' in big)) throw new Error(`expected a result, got ${JSON.stringify(big)}`);
    expect(big.content.length).toBeLessThan(17 * 1024);
    expect(big.content).toMatch(/characters cut/);
    const env = await tool.run({ command: 'env' }, t.ctx);
    if (!('content' in env)) throw new Error('expected content');
    expect(env.content).toContain('VISIBLE=yes');
    expect(env.content).not.toContain('k-123456');
    expect(env.content).not.toContain('s3cr3t-value');
  });

  it('on cancel moves a foreground command to the background without waiting; the session end kills it', async () => {
    const { tool, registry } = setup(['sleep']);
    const t = fakeTask();
    const running = tool.run({ command: 'sleep 30' }, t.ctx);
    await new Promise<void>((r) => {
      const check = () => (t.works.size ? r() : setTimeout(check, 5));
      check();
    });
    const [residue] = await t.cancel();
    expect(residue).toEqual({
      kind: 'detached_shell',
      work_id: expect.stringMatching(/^wrk_[0-9a-f]{6}$/),
      binary: 'sleep',
      command: 'sleep 30',
      started_at_ms: expect.any(Number),
    });
    const out = await running;
    expect(out).toMatchObject({ ok: false, error: expect.stringContaining('keeps running in the background') });
    const [cmd] = registry.running();
    expect(alive(cmd.child.pid!)).toBe(true);
    expect(registry.residue()).toEqual([residue]);
    await registry.dispose();
    expect(alive(cmd.child.pid!)).toBe(false);
    expect(registry.residue()).toEqual([]);
  });

  it('detaches on request: a work id at once, output in the records, residue until the session ends', async () => {
    const { tool, registry, dir } = setup(['sh']);
    const t = fakeTask();
    const out = await tool.run({ command: ['sh', '-c', 'echo started; exec sleep 30'], detach: true }, t.ctx);
    expect(out).toMatchObject({
      ok: true,
      content: expect.stringMatching(/^started in the background as wrk_[0-9a-f]{6}/),
    });
    const [cmd] = registry.running();
    const [residue] = await t.cancel();
    expect(residue).toMatchObject({ kind: 'detached_shell', work_id: cmd.workId, binary: 'sh' });
    expect(alive(cmd.child.pid!)).toBe(true);
    await new Promise<void>((r) => {
      const check = () =>
        readFileSync(join(dir, 'shell', `${cmd.workId}.log`), 'utf8').includes('started') ? r() : setTimeout(check, 10);
      check();
    });
    await registry.dispose();
    expect(alive(cmd.child.pid!)).toBe(false);
    expect(t.events.map((e) => e.event_type)).toEqual(['shell_start', 'shell_exit']);
  });
});
