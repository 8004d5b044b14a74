import { existsSync } from 'node:fs';
import { door, DoorError } from '../door/client';
import { hostAlive, removeRunningFile, resolveRunningSession, type RunningSession } from '../trace';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { layout } from './home';
import { residueLine } from './residue';
import { RUNNING_ADDRESS_HELP, ADDRESS_RULE_HELP } from './session-help';

// `capsule stop <session>` ends exactly the session it names, never its neighbours:
//  1. murmur.StopSession, so what the session cancels and leaves behind is read while it can answer;
//  2. murmur.EndSession, the session's own end through its door: its host (`capsule run`,
//     `capsule serve`, the Studio) writes session_end, closes the door, removes the running
//     record, and goes on hosting its other sessions;
//  3. only when that end does not come, and only when the process hosts this one session alone
//     (`capsule run` records so), SIGTERM, then SIGKILL. A process that hosts more is never signalled.

export const usage = `usage: capsule stop <session>
  <session>  ${RUNNING_ADDRESS_HELP}
Cancels the session's tasks, prints what they left behind, and ends that session only.
${ADDRESS_RULE_HELP}`;

/** How long a cancel may take (a harness gets its grace period) and how long the end may take. */
const CANCEL_TIMEOUT_MS = 30_000;
const END_WAIT_MS = 15_000;
const KILL_AFTER_MS = 5000;

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return done();
}

/**
 * The session has ended when its host removed its running record, or the process is gone (its pid
 * may meanwhile belong to another process, which is never signalled).
 */
const ended = (s: RunningSession) => () => !existsSync(s.file) || !hostAlive(s);

const why = (err: unknown) =>
  err instanceof DoorError && err.kind === 'rpc' && err.code === -32601
    ? 'its door has no murmur.EndSession'
    : (err as Error).message;

async function signalAlone(session: RunningSession, runDir: string): Promise<void> {
  process.stderr.write(`capsule: signalling ${session.name} (pid ${session.pid}), which hosts this session alone\n`);
  const gone = () => !hostAlive(session);
  try {
    if (!gone()) process.kill(session.pid, 'SIGTERM');
  } catch {}
  if (!(await waitUntil(gone, KILL_AFTER_MS))) {
    process.stderr.write(
      `capsule: ${session.name} (pid ${session.pid}) did not exit within ${KILL_AFTER_MS / 1000}s; killing it\n`,
    );
    try {
      if (!gone()) process.kill(session.pid, 'SIGKILL');
    } catch {}
    await waitUntil(gone, 2000);
  }
  // A process that was killed could not remove its own record.
  removeRunningFile(runDir, session.id);
}

export async function main(argv: string[]): Promise<number> {
  const { positionals } = parseCommandArgs('stop', argv, {}, usage);
  if (positionals.length !== 1) throw new UserError(`stop needs one session\n${usage}`, 2);
  const runDir = layout().running;
  const session = resolveRunningSession(positionals[0], runDir);
  try {
    const { canceled, residue } = await door.stopSession(session.url, { timeoutMs: CANCEL_TIMEOUT_MS });
    process.stdout.write(
      canceled.length ? canceled.map((id) => `canceled: ${id}\n`).join('') : 'canceled: nothing was running\n',
    );
    for (const item of residue) process.stdout.write(`${residueLine(item)}\n`);
  } catch (err) {
    process.stderr.write(`capsule: murmur.StopSession: ${(err as Error).message}\n`);
  }

  let problem: string;
  try {
    await door.endSession(session.url, { timeoutMs: CANCEL_TIMEOUT_MS });
    if (await waitUntil(ended(session), END_WAIT_MS)) {
      process.stdout.write(`stopped: ${session.name} (${session.id})\n`);
      return 0;
    }
    problem = `did not end within ${END_WAIT_MS / 1000}s of murmur.EndSession`;
  } catch (err) {
    if (ended(session)()) {
      process.stdout.write(`stopped: ${session.name} (${session.id})\n`);
      return 0;
    }
    problem = `could not be asked to end (${why(err)})`;
  }
  if (!session.ownsProcess) {
    throw new UserError(
      `${session.name} (${session.id}) ${problem}; its host (pid ${session.pid}) may run other sessions, so it was not signalled`,
    );
  }
  process.stderr.write(`capsule: ${session.name} (${session.id}) ${problem}\n`);
  await signalAlone(session, runDir);
  process.stdout.write(`stopped: ${session.name} (${session.id})\n`);
  return 0;
}
