import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manifestSchema } from '../../src-shared/manifest';
import { startSession } from '../../src-main/launch';

// The runtime's and the trace's share of a blocking SendMessage, without HTTP: a rehearsal session
// (zero delay) takes messages straight into acceptMessage (16 in flight, or IN_FLIGHT), each answer is
// serialized as the door would, and the CPU this process spends per task is printed. Not part of
// `npm run bench`; a quick, steadier way to compare two versions of the task path on a shared machine.
// Usage: node -r tsx/cjs bench/door/inproc.ts [N] [IN_FLIGHT]
// Fewer in flight means fewer tasks' lines per trace write, as over HTTP (about 4 to 8 a write).

const N = Number(process.argv[2] ?? 20000);
const IN_FLIGHT = Number(process.argv[3] ?? 16);

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'capsule-inproc-'));
  const manifest = manifestSchema.parse({
    name: 'bench-door',
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
    const accepted = session.acceptMessage({
      message: { messageId: `m-${i}`, role: 'ROLE_USER', parts: [{ text: 'hello from the a2a load harness' }] },
      method: 'SendMessage',
    });
    const task = await accepted.settled;
    await session.trace.flush(); // the door answers once the task's lines are in the file
    if (task.status.state !== 'TASK_STATE_COMPLETED') throw new Error(task.status.state);
    JSON.stringify({ jsonrpc: '2.0', id: i, result: { task } });
  };
  const run = async (count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < count) await send(next++);
      }),
    );
  };
  await run(2000);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run(N);
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  process.stdout.write(
    `${JSON.stringify({ n: N, cpu_us_per_req: Math.round(((c.user + c.system) / N) * 10) / 10, wall_ms: Math.round(wall) })}\n`,
  );
  await session.end('bench over');
  rmSync(home, { recursive: true, force: true });
}
void main();
