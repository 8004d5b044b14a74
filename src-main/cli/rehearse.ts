import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeRehearsal, saveRehearsal } from '../recording';
import { saveTest, TEST_NAME } from '../regression';
import { resolveRecordedSession } from '../trace';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { openStore } from './home';

// `capsule rehearse --from <session>`: a recorded session (any driver) becomes a rehearsal that
// replays it offline: a workspace folder with every capsule that took part, each on the
// rehearsal driver with its script. `--save-test NAME` writes a regression test instead.

export const usage = `usage: capsule rehearse --from <session> [--out DIR] [--speed N | --no-delay] [--save-test NAME [--workspace W]] [--records DIR]
  --from        the recorded session: @1, @2, …, the last 4+ characters of its id, the id, or a trace.jsonl path
  --out         where to write the rehearsal workspace (default ./rehearsal-<last 6 of the session id>)
  --speed       replay N times faster than recorded (default 1: recorded timings)
  --no-delay    replay with no simulated latency
  --save-test   write <workspace>/tests/NAME.yaml (a test for \`capsule test\`) instead of a workspace
  --workspace   the workspace the test belongs to (default: the current folder)`;

const options = {
  from: { type: 'string' },
  out: { type: 'string' },
  speed: { type: 'string' },
  'no-delay': { type: 'boolean' },
  'save-test': { type: 'string' },
  workspace: { type: 'string', short: 'w' },
  records: { type: 'string' },
} as const;

function speedOf(values: { speed?: string; 'no-delay'?: boolean }): number {
  if (values['no-delay']) {
    if (values.speed !== undefined) throw new UserError('--speed and --no-delay cannot be used together', 2);
    return 0;
  }
  if (values.speed === undefined) return 1;
  const n = Number(values.speed);
  if (!Number.isFinite(n) || n <= 0 || n > 1_000_000)
    throw new UserError(`--speed must be a number above 0, not "${values.speed}"`, 2);
  return n;
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('rehearse', argv, options, usage);
  if (!values.from) throw new UserError(`rehearse needs --from <session>\n${usage}`, 2);
  const speed = speedOf(values);
  const { store, records } = openStore(values.records);
  let tracePath: string;
  let sessionId: string;
  try {
    store.syncRecords(records);
    const s = resolveRecordedSession(values.from, store);
    if (!s.tracePath) throw new UserError(`session ${s.id} has no trace file`);
    tracePath = s.tracePath;
    sessionId = s.id;
  } finally {
    store.dispose();
  }
  const r = await makeRehearsal(tracePath, { recordsRoot: records, speed });
  const testName = values['save-test'];
  if (testName !== undefined) {
    if (!TEST_NAME.test(testName))
      throw new UserError(`--save-test: "${testName}" is not a test name (letters, digits, dot, dash, underscore)`, 2);
    const file = saveTest(resolve(values.workspace ?? '.'), testName, r);
    process.stdout.write(`test: ${file}\n`);
  } else {
    const out = resolve(values.out ?? `rehearsal-${sessionId.slice(-6)}`);
    if (existsSync(join(out, 'formation.yaml')) && values.out === undefined)
      throw new UserError(`${out} already holds a workspace; name another with --out`);
    const written = saveRehearsal(out, r);
    process.stdout.write(`rehearsal: ${out}\n`);
    for (const [name, path] of Object.entries(written)) process.stdout.write(`capsule: ${name} ${path}\n`);
  }
  for (const n of r.notes) process.stdout.write(`note: ${n}\n`);
  return 0;
}
