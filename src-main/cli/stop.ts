import type { StopSessionResult } from '../runtime';
import { pidAlive, removeRunningFile, resolveRunningSession } from '../trace';
import { parseCommandArgs } from './args';
import { callDoor } from './door-client';
import { UserError } from './errors';
import { layout } from './home';
import { residueLine } from './residue';

// `capsule stop <session>`: murmur.StopSession first, so the account of what the session leaves
// running is read while the capsule can still answer; then SIGTERM, and SIGKILL after 5 s.

export const usage = `usage: capsule stop <session>
  <session>  @1 (newest), @2, …, the last 4+ characters of a session id, the full id, or a trace.jsonl path`;

const KILL_AFTER_MS = 5000;

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !pidAlive(pid);
}

export async function main(argv: string[]): Promise<number> {
  const { positionals } = parseCommandArgs('stop', argv, {}, usage);
  if (positionals.length !== 1) throw new UserError(`stop needs one session\n${usage}`, 2);
  const runDir = layout().running;
  const session = resolveRunningSession(positionals[0], runDir);
  try {
    const answer = await callDoor<StopSessionResult>(session.url, 'murmur.StopSession', {});
    if (answer.error) process.stderr.write(`capsule: murmur.StopSession refused (${answer.error.code}): ${answer.error.message}\n`);
    else {
      const { canceled, residue } = answer.result;
      process.stdout.write(canceled.length ? canceled.map((id) => `canceled: ${id}\n`).join('') : 'canceled: nothing was running\n');
      for (const item of residue) process.stdout.write(`${residueLine(item)}\n`);
    }
  } catch (err) {
    process.stderr.write(`capsule: ${(err as Error).message}; signalling the process anyway\n`);
  }
  try {
    process.kill(session.pid, 'SIGTERM');
  } catch {}
  if (!(await waitForExit(session.pid, KILL_AFTER_MS))) {
    process.stderr.write(`capsule: ${session.name} (pid ${session.pid}) did not exit within 5s; killing it\n`);
    try {
      process.kill(session.pid, 'SIGKILL');
    } catch {}
    await waitForExit(session.pid, 2000);
    removeRunningFile(runDir, session.id);
  }
  process.stdout.write(`stopped: ${session.name} (${session.id})\n`);
  return 0;
}
