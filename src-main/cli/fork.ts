import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startSession } from '../launch';
import { readSourceFile } from '../manifest';
import { ForkError, prepareFork, recordedSession, replayedDelegations, type DelegationEdit } from '../recording';
import { staticFormation, type FormationTarget } from '../runtime/tools';
import { readTraceLines, resolveRecordedSession } from '../trace';
import { FORMATION_FILE, launchFork, readFormation } from '../workspace';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { openStore } from './home';

// `capsule fork --from <session> --turn N [--message TEXT]`: a new run of a recorded task whose
// turns before N replay the recording, then the capsule's driver (or, with --rehearsal, the
// recording) answers. The fork's session records where it came from (session_start.forked_from).

export const usage = `usage: capsule fork --from <session> [--task ID|N] [--turn N] [--message TEXT] [--delegation CALL=TEXT]… [--rehearsal] [--workspace W] [--records DIR]
  --from        the recorded session: @1, @2, …, the last 4+ characters of its id, the id, or a trace.jsonl path
  --task        the task to fork: its id, or its number in the session (default 1)
  --turn        the turn the driver answers from; the turns before it replay the recording (default 1)
  --message     the task's message in the fork (default: the recorded one); read from --turn on
  --delegation  what a replayed delegation (a turn before --turn) sends instead: its call id (the fork
                lists them), "=", the text; once per delegation
  --rehearsal   answer from the recording instead of the capsule's configured driver (no model, no key)
  --workspace   the formation whose capsules the fork's delegations reach by name`;

const options = {
  from: { type: 'string' },
  task: { type: 'string' },
  turn: { type: 'string' },
  message: { type: 'string' },
  delegation: { type: 'string', multiple: true },
  rehearsal: { type: 'boolean' },
  workspace: { type: 'string', short: 'w' },
  records: { type: 'string' },
} as const;

/** `CALL=TEXT` as a delegation edit. */
function delegationEdit(arg: string): DelegationEdit {
  const at = arg.indexOf('=');
  if (at < 1)
    throw new UserError(
      `--delegation takes CALL=TEXT (a call id the fork lists, then the text), not "${arg.slice(0, 80)}"`,
      2,
    );
  return { callId: arg.slice(0, at), text: arg.slice(at + 1) };
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/** The biggest trace a fork reads whole. */
const MAX_TRACE_BYTES = 64 * 1024 * 1024;

/** The workspace's capsules by id and name, so delegate_task reaches them as in the Studio. */
function formationOf(workspace: string) {
  const file = join(workspace, FORMATION_FILE);
  if (!existsSync(file)) throw new UserError(`${workspace} has no ${FORMATION_FILE}`, 2);
  const targets: Record<string, FormationTarget> = {};
  let text: string;
  try {
    text = readSourceFile(file);
  } catch (err) {
    throw new UserError(`cannot read ${file}: ${(err as Error).message}`);
  }
  for (const c of readFormation(text).capsules)
    targets[c.id] = { kind: 'manifest', manifestPath: resolve(workspace, c.manifest) };
  return staticFormation(targets);
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('fork', argv, options, usage);
  if (!values.from) throw new UserError(`fork needs --from <session>\n${usage}`, 2);
  const turn = values.turn === undefined ? 1 : Number(values.turn);
  if (!Number.isInteger(turn) || turn < 1)
    throw new UserError(`--turn must be a whole number from 1, not "${values.turn}"`, 2);
  const { store, records } = openStore(values.records);
  let tracePath: string;
  try {
    store.syncRecords(records);
    const s = resolveRecordedSession(values.from, store);
    if (!s.tracePath) throw new UserError(`session ${s.id} has no trace file`);
    tracePath = s.tracePath;
  } finally {
    store.dispose();
  }
  if (statSync(tracePath).size > MAX_TRACE_BYTES)
    throw new UserError(`${tracePath} is over ${MAX_TRACE_BYTES >> 20} MB: too big to fork from`);
  const session = recordedSession(readTraceLines(tracePath).lines.map((l) => l.event));
  const n = Number(values.task ?? '1');
  const task =
    Number.isInteger(n) && n >= 1 && String(n) === (values.task ?? '1')
      ? session.tasks[n - 1]
      : session.tasks.find((t) => t.taskId === values.task);
  if (!task) throw new UserError(`session ${session.sessionId} has no task ${values.task ?? '1'}`);
  const delegations = (values.delegation ?? []).map(delegationEdit);
  let prepared;
  try {
    prepared = prepareFork(session, {
      taskId: task.taskId,
      turn,
      driver: values.rehearsal ? 'rehearsal' : 'real',
      env: process.env,
      ...(values.message !== undefined ? { message: values.message } : {}),
      ...(delegations.length ? { delegations } : {}),
    });
  } catch (err) {
    if (err instanceof ForkError) throw new UserError(err.message, err.code === 'invalid_input' ? 2 : 1);
    throw err;
  }
  const launched = await launchFork(prepared, {
    startSession,
    env: process.env,
    recordsRoot: records,
    ...(values.workspace ? { formation: formationOf(resolve(values.workspace)) } : {}),
  });
  process.stdout.write(`fork: ${launched.session.id} of ${session.sessionId} task ${task.taskId} at turn ${turn}\n`);
  if (turn > 1) {
    // Which turns replay, and what their delegations send: an edited message is only read from --turn on.
    process.stdout.write(`replayed: ${turn === 2 ? 'turn 1' : `turns 1-${turn - 1}`} from the recording\n`);
    const edited = new Map(delegations.map((d) => [d.callId, d.text]));
    for (const d of replayedDelegations(task, turn))
      process.stdout.write(
        `  turn ${d.turn} delegation ${d.callId} to ${d.to}${edited.has(d.callId) ? ' (edited)' : ''}: ${JSON.stringify(clip(edited.get(d.callId) ?? d.text))}\n`,
      );
  }
  try {
    const done = await launched.settled;
    const answer = done.artifacts?.[0]?.parts.find((p) => typeof p.text === 'string')?.text;
    process.stdout.write(`state: ${done.status.state}\n`);
    if (answer !== undefined) process.stdout.write(`${answer}\n`);
    return done.status.state === 'TASK_STATE_COMPLETED' ? 0 : 1;
  } finally {
    await launched.session.end('fork finished');
  }
}
