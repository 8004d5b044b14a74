import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manifestSchema } from '../../src-shared/manifest';
import { startSession } from '../../src-main/launch';
import type { SessionBreakpoints } from '../../src-main/runtime';

// What breakpoints that do not hit cost a task: the same rehearsal session (zero delay, 16 in
// flight, straight into acceptMessage as bench/door/inproc.ts does) runs rounds with no
// breakpoints and rounds with a breakpoint on another capsule's edge, alternated, side by side.
// The figure is the ratio of CPU per task, never a bare time. Not part of `npm run bench`.
// Usage: node -r tsx/cjs bench/breakpoints/hook.ts [N] [--out file]

const N = Number(process.argv[2] ?? 10000);
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 ? process.argv[outAt + 1] : join(__dirname, '..', 'results', 'breakpoints-hook.json');

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'capsule-bp-'));
  const manifest = manifestSchema.parse({
    name: 'bench-bp',
    version: '1.0.0',
    inference: { model: 'rehearsal', driver: { artifact: 'capsule/driver-rehearsal' }, rehearsal: { delay_ms: 0 } },
    lifecycle: { task_acceptance: 'queue', after_task: 'sleep', queue_depth: 1024 },
  });
  const session = await startSession({
    manifestPath: join(home, 'm.yaml'),
    manifest,
    env: { ...process.env, CAPSULE_HOME: home },
    port: 0,
  });
  const send = async (i: number) => {
    const task = await session.acceptMessage({
      message: { messageId: `m-${i}`, role: 'ROLE_USER', parts: [{ text: 'hello' }] },
      method: 'SendMessage',
    }).settled;
    if (task.status.state !== 'TASK_STATE_COMPLETED') throw new Error(task.status.state);
  };
  const run = async (count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) await send(next++);
      }),
    );
  };
  const elsewhere: SessionBreakpoints = {
    turn: false,
    edges: [{ names: ['someone-else'], urls: ['http://127.0.0.1:1'] }],
    timeoutMs: 600_000,
  };
  const cpuPerTask = async (bp: SessionBreakpoints | undefined) => {
    session.setBreakpoints(bp);
    const c0 = process.cpuUsage();
    await run(N);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / N;
  };
  await run(2000);
  const none: number[] = [];
  const set: number[] = [];
  for (let round = 0; round < 3; round++) {
    none.push(await cpuPerTask(undefined));
    set.push(await cpuPerTask(elsewhere));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
  const result = {
    n: N,
    rounds: 3,
    cpu_us_per_task_none: Math.round(median(none) * 10) / 10,
    cpu_us_per_task_set_elsewhere: Math.round(median(set) * 10) / 10,
    ratio: Math.round((median(set) / median(none)) * 1000) / 1000,
  };
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await session.end('bench over');
  rmSync(home, { recursive: true, force: true });
}
void main();
