import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { manifestSchema } from '../../src-shared/manifest';
import { callSession, door } from '../../src-main/door';
import { startSession } from '../../src-main/launch';

// What reaching a session costs three ways: through its door over loopback JSON-RPC (the door
// client, as an external caller does), through the door's method table in process (callSession,
// as the Studio does for the sessions it hosts), and on the session object: GetTask for one task,
// and a task list of the newest N with history and answers (ListTasks pages vs session.listTasks),
// side by side in one run on one session. Median per call and the ratios; never asserted.
// Usage: node -r tsx/cjs bench/studio-calls/calls.ts [--smoke] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const out = resolve(
  args.includes('--out') ? args[args.indexOf('--out') + 1] : join(__dirname, '..', 'results', 'studio-calls.json'),
);
const TASKS = smoke ? 50 : 200;
const ROUNDS = smoke ? 20 : 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(fn: () => unknown): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(); // warm up: the client's first calls load and compile it
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  return Math.round(median(samples));
}

(async () => {
  const home = mkdtempSync(join(tmpdir(), 'bench-studio-calls-'));
  const manifest = manifestSchema.parse({
    name: 'bench-calls',
    version: '1.0.0',
    inference: { model: 'rehearsal', driver: { artifact: 'capsule/driver-rehearsal' }, rehearsal: { delay_ms: 0 } },
  });
  const session = await startSession({
    manifestPath: join(home, 'murmur.yaml'),
    manifest,
    env: { CAPSULE_HOME: home },
    port: 0,
  });
  try {
    let last = '';
    for (let i = 0; i < TASKS; i++) {
      const r = await door.sendMessage(session.url, {
        message: { messageId: `m${i}`, role: 'ROLE_USER', parts: [{ text: `task ${i}` }] },
      });
      last = r.task!.id;
    }
    const listViaDoor = async () => {
      let token = '';
      let n = 0;
      do {
        const page = await door.listTaskPage(session.url, {
          pageSize: 100,
          includeArtifacts: true,
          ...(token ? { pageToken: token } : {}),
        });
        n += page.tasks.length;
        token = page.nextPageToken;
      } while (token && n < TASKS);
    };
    const listInProcess = async () => {
      let token = '';
      let n = 0;
      do {
        const page = (await callSession(session, 'ListTasks', {
          pageSize: 100,
          includeArtifacts: true,
          ...(token ? { pageToken: token } : {}),
        })) as { tasks: unknown[]; nextPageToken: string };
        n += page.tasks.length;
        token = page.nextPageToken;
      } while (token && n < TASKS);
    };
    const listDirect = () =>
      Promise.all(
        session
          .listTasks()
          .slice(-TASKS)
          .map((t) => session.readTask(t.id)),
      );
    const getViaDoor = await time(() => door.getTask(session.url, last));
    const getInProcess = await time(() => callSession(session, 'GetTask', { id: last }));
    const getDirect = await time(() => session.readTask(last));
    const listDoor = await time(listViaDoor);
    const listIn = await time(listInProcess);
    const listDir = await time(listDirect);
    const result = {
      bench: 'studio-calls',
      smoke,
      tasks: TASKS,
      rounds: ROUNDS,
      median_us: {
        get_via_door: getViaDoor,
        get_in_process: getInProcess,
        get_direct: getDirect,
        list_via_door: listDoor,
        list_in_process: listIn,
        list_direct: listDir,
      },
      ratio: {
        get: +(getViaDoor / Math.max(1, getDirect)).toFixed(1),
        list: +(listDoor / Math.max(1, listDir)).toFixed(1),
        get_door_vs_in_process: +(getViaDoor / Math.max(1, getInProcess)).toFixed(1),
        list_door_vs_in_process: +(listDoor / Math.max(1, listIn)).toFixed(1),
      },
      summary: '',
    };
    result.summary = `studio-calls: GetTask ${getViaDoor} us through the door, ${getInProcess} us in process, ${getDirect} us direct; a list of ${TASKS} tasks ${listDoor} us, ${listIn} us, ${listDir} us (medians of ${ROUNDS})`;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await session.end('bench done');
    rmSync(home, { recursive: true, force: true });
  }
})();
